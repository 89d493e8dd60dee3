/**
 * Continuous samplers over a `RandomSource`: standard normal (ziggurat), Gaussian, Laplace,
 * exponential, Gumbel.
 *
 * Normal: Marsaglia & Tsang's ziggurat ("The ziggurat method for generating random
 * variables", J. Stat. Softw. 2000) in Doornik's ZIGNOR form (2005: 128 layers, independent
 * layer index and abscissa, exact tail by Marsaglia's 1964 method). Others by inversion.
 *
 * Caveat (Mironov, CCS 2012): floating-point noise is not exactly the real distribution, and
 * low-order bits of x + noise can leak x. These samplers are the standard practice for
 * real-valued releases (vectors, means, selection scores); releases of integer counts should
 * use the exact discrete samplers in `discrete.ts`.
 */
import type { RandomSource } from './randomSource';
import { uniformOpen } from './uniform';

const LAYERS = 128;
const TAIL_START = 3.442619855899; // R: start of the tail for 128 layers
const LAYER_AREA = 9.91256303526217e-3; // V: area of each layer (and of base + tail)

const zigX = new Float64Array(LAYERS + 1);
const zigRatio = new Float64Array(LAYERS);
(function initZiggurat() {
  let f = Math.exp(-0.5 * TAIL_START * TAIL_START);
  zigX[0] = LAYER_AREA / f; // the base layer's (virtual) width, includes the tail area
  zigX[1] = TAIL_START;
  zigX[LAYERS] = 0;
  for (let i = 2; i < LAYERS; i++) {
    zigX[i] = Math.sqrt(-2 * Math.log(LAYER_AREA / zigX[i - 1] + f));
    f = Math.exp(-0.5 * zigX[i] * zigX[i]);
  }
  for (let i = 0; i < LAYERS; i++) zigRatio[i] = zigX[i + 1] / zigX[i];
})();

/** Tail of N(0,1) beyond `start` (Marsaglia 1964), with the requested sign. */
function normalTail(random: RandomSource, start: number, negative: boolean): number {
  let x: number;
  let y: number;
  do {
    x = Math.log(uniformOpen(random)) / start;
    y = Math.log(uniformOpen(random));
  } while (-2 * y < x * x);
  return negative ? x - start : start - x;
}

/** Standard normal N(0, 1). */
export function sampleStandardNormal(random: RandomSource): number {
  for (;;) {
    const u = 2 * random.nextFloat() - 1;
    const i = random.nextUint32() & (LAYERS - 1);
    if (Math.abs(u) < zigRatio[i]) return u * zigX[i]; // inside the layer's rectangle
    if (i === 0) return normalTail(random, TAIL_START, u < 0);
    const x = u * zigX[i];
    const f0 = Math.exp(-0.5 * (zigX[i] * zigX[i] - x * x));
    const f1 = Math.exp(-0.5 * (zigX[i + 1] * zigX[i + 1] - x * x));
    if (f1 + random.nextFloat() * (f0 - f1) < 1) return x; // under the density in the wedge
  }
}

function checkScale(name: string, scale: number): void {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error(`${name}: scale must be finite and > 0, got ${scale}`);
}

/** N(0, sigma²). */
export function sampleGaussian(random: RandomSource, sigma: number): number {
  checkScale('sampleGaussian', sigma);
  return sigma * sampleStandardNormal(random);
}

/** Fill `out` with i.i.d. N(0, sigma²). */
export function fillGaussian(random: RandomSource, sigma: number, out: Float64Array): Float64Array {
  checkScale('fillGaussian', sigma);
  for (let i = 0; i < out.length; i++) out[i] = sigma * sampleStandardNormal(random);
  return out;
}

/** Exponential with mean `scale` (density e^{−x/scale}/scale on x ≥ 0). */
export function sampleExponential(random: RandomSource, scale = 1): number {
  checkScale('sampleExponential', scale);
  return -scale * Math.log(uniformOpen(random));
}

/** Laplace(0, scale): density e^{−|x|/scale}/(2·scale). A random sign times Exp(scale). */
export function sampleLaplace(random: RandomSource, scale: number): number {
  checkScale('sampleLaplace', scale);
  const magnitude = -scale * Math.log(uniformOpen(random));
  return (random.nextUint32() & 1) === 1 ? magnitude : -magnitude;
}

/** Standard Gumbel(0, scale): CDF exp(−e^{−x/scale}). */
export function sampleGumbel(random: RandomSource, scale = 1): number {
  checkScale('sampleGumbel', scale);
  return -scale * Math.log(-Math.log(uniformOpen(random)));
}

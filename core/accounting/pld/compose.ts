/**
 * FFT composition (Koskela, Jälkö & Honkela 2020): the law of a sum of independent losses
 * is the convolution of their laws, so one forward FFT per distinct part, a pointwise
 * power for its repetition count (Composed(e, T): one transform, not T convolutions) and
 * one inverse FFT give any composition. Several real signals of a part (the bounds' PMFs)
 * travel two at a time as the real and imaginary parts of one complex signal; a lone one
 * takes a real transform of half the size.
 *
 * The transform is circular: index i lands at i mod N, so mass outside a signal's window
 * [offset, offset + N) folds into it; callers bound that mass (window.ts). FFT rounding
 * shows up as small negative values; the largest of them is reported per signal. That is an
 * ESTIMATE of the rounding level, not a proven bound (the error of a positive value is not
 * seen): bounds that add it (direction.ts) are certified only up to FFT rounding. A proven
 * componentwise bound — Higham, Accuracy and Stability of Numerical Algorithms (2002),
 * Thm 24.2 in componentwise form, φ = (1+η)^log₂N − 1 per element times ‖x‖₁, carried through
 * the powers — was tried and is far too loose to use (docs/accounting.md).
 */
import { fft, inverseRealFft, realFft } from './fft';

export interface SignalPart {
  /** Grid index of element 0 of every signal. */
  offset: number;
  signals: Float64Array[];
  count: number;
}

export interface Composed {
  /** Composed signals, element j of signal s at grid index offsets[s] + j. */
  signals: Float64Array[];
  /** Per signal, the largest |negative| value (an estimate of the FFT rounding level). */
  noise: number[];
}

export function convolvePower(parts: SignalPart[], offsets: number[], size: number): Composed {
  const count = parts[0].signals.length;
  const half = size / 2 + 1;
  const accRe = Array.from({ length: count }, () => new Float64Array(half).fill(1));
  const accIm = Array.from({ length: count }, () => new Float64Array(half));
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const [xr, xi, yr, yi] = [new Float64Array(half), new Float64Array(half), new Float64Array(half), new Float64Array(half)];
  for (const part of parts) {
    for (let s = 0; s < count; s += 2) {
      re.fill(0);
      wrap(part.signals[s], part.offset, re);
      if (s + 1 === count) {
        // A lone real signal: half the transform (fft.ts, realFft).
        realFft(re, xr, xi);
        multiplyPower(accRe[s], accIm[s], xr, xi, part.count);
        continue;
      }
      im.fill(0);
      wrap(part.signals[s + 1], part.offset, im);
      fft(re, im);
      // Z = FFT(x + iy): X_k = (Z_k + conj Z_{N−k})/2, Y_k = (Z_k − conj Z_{N−k})/2i.
      for (let k = 0; k < half; k++) {
        const m = (size - k) & (size - 1);
        xr[k] = (re[k] + re[m]) / 2;
        xi[k] = (im[k] - im[m]) / 2;
        yr[k] = (im[k] + im[m]) / 2;
        yi[k] = (re[m] - re[k]) / 2;
      }
      multiplyPower(accRe[s], accIm[s], xr, xi, part.count);
      multiplyPower(accRe[s + 1], accIm[s + 1], yr, yi, part.count);
    }
  }
  const signals: Float64Array[] = [];
  const noise: number[] = [];
  for (let s = 0; s < count; s += 2) {
    const pair = s + 1 < count;
    if (pair) {
      // Rebuild x + iy from the Hermitian halves and invert once.
      const [ar, ai, br, bi] = [accRe[s], accIm[s], accRe[s + 1], accIm[s + 1]];
      for (let k = 0; k < half; k++) {
        re[k] = ar[k] - bi[k];
        im[k] = ai[k] + br[k];
      }
      for (let k = half; k < size; k++) {
        const j = size - k;
        re[k] = ar[j] + bi[j];
        im[k] = br[j] - ai[j];
      }
      fft(re, im, true);
    } else inverseRealFft(accRe[s], accIm[s], re);
    for (const [i, source] of (pair ? [re, im] : [re]).entries()) {
      const out = new Float64Array(size);
      let worst = 0;
      for (let j = 0, p = mod(offsets[s + i], size); j < size; j++, p = p + 1 === size ? 0 : p + 1) {
        out[j] = source[p];
        worst = Math.max(worst, -source[p]);
      }
      signals.push(out);
      noise.push(worst);
    }
  }
  return { signals, noise };
}

const mod = (i: number, n: number): number => ((i % n) + n) % n;

/** Add the signal (element j at grid index offset + j) into the circular buffer. */
function wrap(signal: Float64Array, offset: number, out: Float64Array): void {
  const n = out.length;
  for (let j = 0, p = mod(offset, n); j < signal.length; j++, p = p + 1 === n ? 0 : p + 1) out[p] += signal[j];
}

/**
 * acc ← acc · (re + i·im)^count by binary powering, bin by bin (each bin's squarings stay in
 * registers; re, im are not changed). A base below TINY in modulus is taken as 0: its powers
 * (count ≥ 1) are below 1e−125 of the accumulator, far under the rounding level of the
 * composed PMF, and squaring it on would only crawl through subnormal numbers.
 */
export function multiplyPower(accRe: Float64Array, accIm: Float64Array, re: Float64Array, im: Float64Array, count: number): void {
  if (count === 0) return;
  for (let k = 0; k < accRe.length; k++) {
    let br = re[k];
    let bi = im[k];
    let ar = accRe[k];
    let ai = accIm[k];
    for (let n = count; ; ) {
      if (br * br + bi * bi < TINY) {
        ar = 0;
        ai = 0;
        break;
      }
      if (n % 2 === 1) {
        const r = ar * br - ai * bi;
        ai = ar * bi + ai * br;
        ar = r;
      }
      n = Math.floor(n / 2);
      if (n === 0) break;
      const r = br * br - bi * bi;
      bi = 2 * br * bi;
      br = r;
    }
    accRe[k] = ar;
    accIm[k] = ai;
  }
}

/** Squared modulus below which a base is taken as 0 (multiplyPower). */
const TINY = 1e-250;

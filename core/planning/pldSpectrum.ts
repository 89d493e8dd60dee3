/**
 * Spectra of discrete PLDs for composing many counts of one discretisation
 * (repeatedComposition.ts): each PLD wrapped into a circular buffer and transformed once, two
 * real signals per complex FFT, and a count composed as a pointwise power of its spectrum.
 */
import type { DiscretePld } from '../accounting/pld/discretise';
import { multiplyPower as powerInto } from '../accounting/pld/compose';
import { fft } from '../accounting/pld/fft';

/** i mod n in 0…n − 1. */
export const mod = (i: number, n: number): number => ((i % n) + n) % n;

/** Bins 0…N/2 of the transform of a real signal. */
export interface Spectrum {
  re: Float64Array;
  im: Float64Array;
}

export const unitSpectrum = (size: number): Spectrum => ({ re: new Float64Array(size / 2 + 1).fill(1), im: new Float64Array(size / 2 + 1) });

/** Each PLD's spectrum in turn (two real signals per complex transform; `visit` may overwrite it). */
export function forEachSpectrum(plds: DiscretePld[], size: number, visit: (index: number, spectrum: Spectrum) => void): void {
  const half = size / 2 + 1;
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let s = 0; s < plds.length; s += 2) {
    re.fill(0);
    im.fill(0);
    wrap(plds[s], re);
    const pair = s + 1 < plds.length;
    if (pair) wrap(plds[s + 1], im);
    fft(re, im);
    // Z = FFT(x + iy): X_k = (Z_k + conj Z_{N−k})/2, Y_k = (Z_k − conj Z_{N−k})/2i.
    const x = { re: new Float64Array(half), im: new Float64Array(half) };
    const y = { re: new Float64Array(half), im: new Float64Array(half) };
    for (let k = 0; k < half; k++) {
      const m = (size - k) & (size - 1);
      x.re[k] = (re[k] + re[m]) / 2;
      x.im[k] = (im[k] - im[m]) / 2;
      y.re[k] = (im[k] + im[m]) / 2;
      y.im[k] = (re[m] - re[k]) / 2;
    }
    visit(s, x);
    if (pair) visit(s + 1, y);
  }
}

/** Add the PLD's masses into the circular buffer (element j at grid index offset + j). */
function wrap(pld: DiscretePld, out: Float64Array): void {
  const n = out.length;
  for (let j = 0, p = mod(pld.offset, n); j < pld.masses.length; j++, p = p + 1 === n ? 0 : p + 1) out[p] += pld.masses[j];
}

/** acc ← acc · base^count (compose.ts, multiplyPower; base is left as it is). */
export function multiplyPower(acc: Spectrum, base: Spectrum, count: number): void {
  powerInto(acc.re, acc.im, base.re, base.im, count);
}

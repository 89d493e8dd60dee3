/**
 * In-place complex FFT over split real/imaginary Float64Arrays: iterative Cooley–Tukey
 * (bit-reversal permutation, then radix-2 stages fused two at a time, i.e. radix-4 passes),
 * with the permutation and per-stage twiddle tables cached per size.
 */

interface Plan {
  reverse: Uint32Array;
  /** Twiddles stage by stage: the stage of half-size m holds cos, sin of πk/m (k < m) at m − 1 + k. */
  cos: Float64Array;
  sin: Float64Array;
}

const plans = new Map<number, Plan>();

function planFor(n: number): Plan {
  let plan = plans.get(n);
  if (plan) return plan;
  const bits = Math.log2(n);
  const reverse = new Uint32Array(n);
  for (let i = 1; i < n; i++) reverse[i] = (reverse[i >> 1] >> 1) | ((i & 1) << (bits - 1));
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let m = 1; m < n; m *= 2) {
    for (let k = 0; k < m; k++) {
      cos[m - 1 + k] = Math.cos((Math.PI * k) / m);
      sin[m - 1 + k] = Math.sin((Math.PI * k) / m);
    }
  }
  plan = { reverse, cos, sin };
  plans.set(n, plan);
  return plan;
}

/** Smallest power of two ≥ n (and ≥ 2). */
export function nextPowerOfTwo(n: number): number {
  let size = 2;
  while (size < n) size *= 2;
  return size;
}

/** Points whose radix-4 passes run together while they stay in cache (2¹² complex values: 64 KiB). */
const BLOCK = 4096;

/**
 * Two radix-2 stages (half-sizes h and 2h, blocks of 4h) over [from, to), a multiple of 4h:
 * (a, b) and (c, d) with w1 at stage h, then (a, c) with w2 and (b, d) with w2·e^{∓iπ/2} = w2·(sign·i).
 */
function radix4Pass(re: Float64Array, im: Float64Array, cos: Float64Array, sin: Float64Array, sign: number, half: number, from: number, to: number): void {
  for (let start = from; start < to; start += 4 * half) {
    for (let k = 0; k < half; k++) {
      const a = start + k;
      const b = a + half;
      const c = b + half;
      const d = c + half;
      const w1r = cos[half - 1 + k];
      const w1i = sign * sin[half - 1 + k];
      const w2r = cos[2 * half - 1 + k];
      const w2i = sign * sin[2 * half - 1 + k];
      let tr = re[b] * w1r - im[b] * w1i;
      let ti = re[b] * w1i + im[b] * w1r;
      const br = re[a] - tr;
      const bi = im[a] - ti;
      const ar = re[a] + tr;
      const ai = im[a] + ti;
      tr = re[d] * w1r - im[d] * w1i;
      ti = re[d] * w1i + im[d] * w1r;
      const dr = re[c] - tr;
      const di = im[c] - ti;
      const cr = re[c] + tr;
      const ci = im[c] + ti;
      tr = cr * w2r - ci * w2i;
      ti = cr * w2i + ci * w2r;
      re[a] = ar + tr;
      im[a] = ai + ti;
      re[c] = ar - tr;
      im[c] = ai - ti;
      const ur = dr * w2r - di * w2i;
      const ui = dr * w2i + di * w2r;
      tr = -sign * ui;
      ti = sign * ur;
      re[b] = br + tr;
      im[b] = bi + ti;
      re[d] = br - tr;
      im[d] = bi - ti;
    }
  }
}

/**
 * Transform (re, im) in place: X_k = Σ x_j e^{∓2πi jk/N} (− forward, + inverse); the
 * inverse divides by N. N = re.length must be a power of two.
 */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (n !== im.length || n < 2 || (n & (n - 1)) !== 0) throw new RangeError(`fft: length must be a power of two ≥ 2, got ${n}`);
  const { reverse, cos, sin } = planFor(n);
  for (let i = 0; i < n; i++) {
    const j = reverse[i];
    if (j > i) {
      const tr = re[i];
      re[i] = re[j];
      re[j] = tr;
      const ti = im[i];
      im[i] = im[j];
      im[j] = ti;
    }
  }
  const sign = inverse ? 1 : -1;
  // The passes whose blocks fit BLOCK points run block by block while the block is in cache
  // (the same operations in a different order: bit-identical), the rest over the whole array.
  const block = Math.min(n, BLOCK);
  let half = 1;
  for (let start = 0; start < n; start += block) {
    for (half = 1; 4 * half <= block; half *= 4) radix4Pass(re, im, cos, sin, sign, half, start, start + block);
  }
  for (; 4 * half <= n; half *= 4) radix4Pass(re, im, cos, sin, sign, half, 0, n);
  if (half < n) {
    for (let k = 0; k < half; k++) {
      const wr = cos[half - 1 + k];
      const wi = sign * sin[half - 1 + k];
      const a = k;
      const b = k + half;
      const tr = re[b] * wr - im[b] * wi;
      const ti = re[b] * wi + im[b] * wr;
      re[b] = re[a] - tr;
      im[b] = im[a] - ti;
      re[a] += tr;
      im[a] += ti;
    }
  }
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i] /= n;
      im[i] /= n;
    }
  }
}


/**
 * Bins 0…N/2 of the transform of a real signal x of length N ≥ 2, a power of two (the rest are their
 * conjugates), by one complex transform of N/2 points: z_j = x_{2j} + i·x_{2j+1}, then
 * X_k = E_k + W^k·O_k with E_k = (Z_k + conj Z_{N/2−k})/2, O_k = (Z_k − conj Z_{N/2−k})/2i
 * and W = e^{−2πi/N}. `re`, `im` (N/2 + 1 values) receive the bins.
 */
export function realFft(x: Float64Array, re: Float64Array, im: Float64Array): void {
  const n = x.length;
  const m = n / 2;
  if (n === 2) {
    [re[0], im[0], re[1], im[1]] = [x[0] + x[1], 0, x[0] - x[1], 0];
    return;
  }
  const { cos, sin } = planFor(n);
  const [zr, zi] = scratch(m);
  for (let j = 0; j < m; j++) {
    zr[j] = x[2 * j];
    zi[j] = x[2 * j + 1];
  }
  fft(zr, zi);
  // k = 0 and k = N/2 pair Z_0 with itself: X_0 = Re Z_0 + Im Z_0, X_{N/2} = Re Z_0 − Im Z_0.
  [re[0], im[0], re[m], im[m]] = [zr[0] + zi[0], 0, zr[0] - zi[0], 0];
  for (let k = 1; k < m; k++) {
    const a = zr[k];
    const b = zi[k];
    const c = zr[m - k];
    const d = zi[m - k];
    const wr = cos[m - 1 + k];
    const wi = -sin[m - 1 + k];
    const or = (b + d) / 2;
    const oi = (c - a) / 2;
    re[k] = (a + c) / 2 + wr * or - wi * oi;
    im[k] = (b - d) / 2 + wr * oi + wi * or;
  }
}

/**
 * The real signal x of length N whose bins 0…N/2 are (re, im) (realFft's inverse, divided by
 * N as `fft(…, true)` is), by one inverse complex transform of N/2 points:
 * Z_k = E_k + i·O_k with E_k = (X_k + conj X_{N/2−k})/2 and O_k = (X_k − conj X_{N/2−k})·conj(W^k)/2.
 */
export function inverseRealFft(re: Float64Array, im: Float64Array, x: Float64Array): void {
  const n = x.length;
  const m = n / 2;
  if (n === 2) {
    [x[0], x[1]] = [(re[0] + re[1]) / 2, (re[0] - re[1]) / 2];
    return;
  }
  const { cos, sin } = planFor(n);
  const [zr, zi] = scratch(m);
  for (let k = 0; k < m; k++) {
    const a = re[k];
    const b = im[k];
    const c = re[m - k];
    const d = -im[m - k];
    const dr = (a - c) / 2;
    const di = (b - d) / 2;
    const wr = cos[m - 1 + k];
    const wi = sin[m - 1 + k]; // conj(W^k) = cos + i·sin
    zr[k] = (a + c) / 2 - (dr * wi + di * wr);
    zi[k] = (b + d) / 2 + (dr * wr - di * wi);
  }
  fft(zr, zi, true);
  for (let j = 0; j < m; j++) {
    x[2 * j] = zr[j];
    x[2 * j + 1] = zi[j];
  }
}

/** Two work arrays of n points, reused between calls (their contents do not survive one). */
function scratch(n: number): [Float64Array, Float64Array] {
  if (!(scratchRe.length === n)) [scratchRe, scratchIm] = [new Float64Array(n), new Float64Array(n)];
  return [scratchRe, scratchIm];
}
let scratchRe = new Float64Array(0);
let scratchIm = new Float64Array(0);

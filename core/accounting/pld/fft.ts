/**
 * In-place complex FFT over split real/imaginary Float64Arrays: iterative Cooley–Tukey
 * (bit-reversal permutation, then radix-2 stages fused two at a time, i.e. radix-4 passes),
 * with the permutation and per-stage twiddle tables cached per size.
 */

interface Plan {
  /** The bit-reversal permutation as its swaps: pairs (i, j), i < j, flattened. */
  swaps: Uint32Array;
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
  const pairs: number[] = [];
  for (let i = 0; i < n; i++) if (reverse[i] > i) pairs.push(i, reverse[i]);
  const swaps = Uint32Array.from(pairs);
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let m = 1; m < n; m *= 2) {
    for (let k = 0; k < m; k++) {
      cos[m - 1 + k] = Math.cos((Math.PI * k) / m);
      sin[m - 1 + k] = Math.sin((Math.PI * k) / m);
    }
  }
  plan = { swaps, cos, sin };
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

/** Two radix-2 stages (half-sizes h and 2h, blocks of 4h) over [from, to), a multiple of 4h. */
function radix4Pass(re: Float64Array, im: Float64Array, cos: Float64Array, sin: Float64Array, sign: number, half: number, from: number, to: number): void {
  for (let start = from; start < to; start += 4 * half) {
    for (let k = 0; k < half; k++) {
      const a = start + k;
      butterfly4(re, im, a, half, cos[half - 1 + k], sign * sin[half - 1 + k], cos[2 * half - 1 + k], sign * sin[2 * half - 1 + k], sign);
    }
  }
}

/**
 * One radix-4 butterfly on a, a + s, a + 2s, a + 3s: (a, b) and (c, d) with w1 at the first
 * stage, then (a, c) with w2 and (b, d) with w2·e^{∓iπ/2} = w2·(sign·i).
 */
function butterfly4(re: Float64Array, im: Float64Array, a: number, s: number, w1r: number, w1i: number, w2r: number, w2i: number, sign: number): void {
  const b = a + s;
  const c = b + s;
  const d = c + s;
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

/** One radix-2 butterfly on a, a + s with twiddle w. */
function butterfly2(re: Float64Array, im: Float64Array, a: number, s: number, wr: number, wi: number): void {
  const b = a + s;
  const tr = re[b] * wr - im[b] * wi;
  const ti = re[b] * wi + im[b] * wr;
  re[b] = re[a] - tr;
  im[b] = im[a] - ti;
  re[a] += tr;
  im[a] += ti;
}

/** From this size (2 MiB of real and imaginary parts, past the L2 cache) the stages beyond a block go by columns (outerStages). */
const TILED_FROM = 2 ** 17;
/** Columns gathered at a time for the stages beyond a block (outerStages). */
const TILE = 16;

/**
 * The stages of half-size BLOCK and up (n > BLOCK), TILE columns at a time: point c of block m
 * goes to row m, column c − c₀ of a small array that stays in cache, every stage runs there
 * (a butterfly joins rows, its twiddle is that of the point's index within its group, as over
 * the whole array: the same operations on the same values), and the columns go back. Over the
 * whole array, these stages' power-of-two strides thrash the cache.
 */
function outerStages(re: Float64Array, im: Float64Array, cos: Float64Array, sin: Float64Array, sign: number): void {
  const n = re.length;
  const rows = n / BLOCK;
  if (tileRe.length !== rows * TILE) [tileRe, tileIm] = [new Float64Array(rows * TILE), new Float64Array(rows * TILE)];
  const [tr, ti] = [tileRe, tileIm];
  for (let c0 = 0; c0 < BLOCK; c0 += TILE) {
    for (let m = 0; m < rows; m++) {
      for (let t = 0; t < TILE; t++) {
        tr[m * TILE + t] = re[m * BLOCK + c0 + t];
        ti[m * TILE + t] = im[m * BLOCK + c0 + t];
      }
    }
    let span = 1; // a stage's half-size in rows (its half-size over the array: span · BLOCK)
    for (; 4 * span <= rows; span *= 4) {
      const half = span * BLOCK;
      for (let g = 0; g < rows; g += 4 * span) {
        for (let r = 0; r < span; r++) {
          for (let t = 0; t < TILE; t++) {
            const k = r * BLOCK + c0 + t;
            butterfly4(tr, ti, (g + r) * TILE + t, span * TILE, cos[half - 1 + k], sign * sin[half - 1 + k], cos[2 * half - 1 + k], sign * sin[2 * half - 1 + k], sign);
          }
        }
      }
    }
    if (span < rows) {
      const half = span * BLOCK; // n / 2: the last stage alone
      for (let r = 0; r < span; r++) {
        for (let t = 0; t < TILE; t++) {
          const k = r * BLOCK + c0 + t;
          butterfly2(tr, ti, r * TILE + t, span * TILE, cos[half - 1 + k], sign * sin[half - 1 + k]);
        }
      }
    }
    for (let m = 0; m < rows; m++) {
      for (let t = 0; t < TILE; t++) {
        re[m * BLOCK + c0 + t] = tr[m * TILE + t];
        im[m * BLOCK + c0 + t] = ti[m * TILE + t];
      }
    }
  }
}
let tileRe = new Float64Array(0);
let tileIm = new Float64Array(0);

/**
 * Transform (re, im) in place: X_k = Σ x_j e^{∓2πi jk/N} (− forward, + inverse); the
 * inverse divides by N. N = re.length must be a power of two.
 */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (n !== im.length || n < 2 || (n & (n - 1)) !== 0) throw new RangeError(`fft: length must be a power of two ≥ 2, got ${n}`);
  const { swaps, cos, sin } = planFor(n);
  for (let s = 0; s < swaps.length; s += 2) {
    const i = swaps[s];
    const j = swaps[s + 1];
    const tr = re[i];
    re[i] = re[j];
    re[j] = tr;
    const ti = im[i];
    im[i] = im[j];
    im[j] = ti;
  }
  const sign = inverse ? 1 : -1;
  // The passes whose blocks fit BLOCK points run block by block while the block is in cache,
  // the rest a few columns at a time (outerStages): the same operations in a different order.
  const block = Math.min(n, BLOCK);
  let half = 1;
  for (let start = 0; start < n; start += block) {
    for (half = 1; 4 * half <= block; half *= 4) radix4Pass(re, im, cos, sin, sign, half, start, start + block);
  }
  if (n >= TILED_FROM) outerStages(re, im, cos, sin, sign);
  else {
    for (; 4 * half <= n; half *= 4) radix4Pass(re, im, cos, sin, sign, half, 0, n);
    if (half < n) for (let k = 0; k < half; k++) butterfly2(re, im, k, half, cos[half - 1 + k], sign * sin[half - 1 + k]);
  }
  if (inverse) {
    const scale = 1 / n; // exact (n a power of two): the same as dividing by n
    for (let i = 0; i < n; i++) {
      re[i] *= scale;
      im[i] *= scale;
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

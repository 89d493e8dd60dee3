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
  let half = 1;
  // Two radix-2 stages per pass (half-sizes h and 2h, blocks of 4h), then a last single one.
  for (; 4 * half <= n; half *= 4) {
    for (let start = 0; start < n; start += 4 * half) {
      for (let k = 0; k < half; k++) {
        const a = start + k;
        const b = a + half;
        const c = b + half;
        const d = c + half;
        const w1r = cos[half - 1 + k];
        const w1i = sign * sin[half - 1 + k];
        const w2r = cos[2 * half - 1 + k];
        const w2i = sign * sin[2 * half - 1 + k];
        // Stage h: (a, b) and (c, d) with w1.
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
        // Stage 2h: (a, c) with w2, (b, d) with w2·e^{∓iπ/2} = w2·(sign·i).
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


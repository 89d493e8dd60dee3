/**
 * A low-dimensional public basis for the answers' embeddings: the top right singular vectors of
 * the PUBLIC answers' matrix (the public ensemble — no privacy cost), so that DPM's axis-aligned
 * splits and Gaussian sums work in a few meaningful dimensions instead of the model's hundreds.
 * The basis is orthonormal, so a unit-ball point projects into the unit ball (and DPM clips
 * anyway): the public bounds [−1, 1] and the sensitivities are unchanged. Never computed from
 * private points.
 *
 * Method: eigenvectors u of the public Gram matrix P Pᵀ (cyclic Jacobi rotations: deterministic,
 * exact to rounding for the small public ensembles here), v = Pᵀu/‖Pᵀu‖, re-orthonormalised.
 */

/** Relative size below which an eigenvalue is treated as zero (rank deficiency). */
const RANK_TOLERANCE = 1e-9;
const JACOBI_SWEEPS = 60;

/** Eigenvalues and eigenvectors (columns of `vectors`, row-major n×n) of a symmetric matrix, by cyclic Jacobi. */
function symmetricEigen(matrix: Float64Array[], n: number): { values: number[]; vectors: Float64Array[] } {
  const a = matrix.map((row) => Float64Array.from(row));
  const v = Array.from({ length: n }, (_, i) => Float64Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < JACOBI_SWEEPS; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (a[p][q] === 0) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p];
          const akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k];
          const aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: a.map((row, i) => row[i]), vectors: v };
}

const dot = (x: ArrayLike<number>, y: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i] * y[i];
  return sum;
};

/**
 * Up to `dimensions` orthonormal vectors spanning the public points' main directions (fewer when
 * the public points have lower rank). Throws when there is no public point.
 */
export function publicBasis(publicPoints: readonly ArrayLike<number>[], dimensions: number): Float64Array[] {
  if (publicPoints.length === 0) throw new Error('publicBasis: no public points (SGA needs the public ensemble’s answers)');
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError('publicBasis: dimensions must be a positive integer');
  const n = publicPoints.length;
  const d = publicPoints[0].length;
  const gram = Array.from({ length: n }, (_, i) => Float64Array.from({ length: n }, (_, j) => dot(publicPoints[i], publicPoints[j])));
  const { values, vectors } = symmetricEigen(gram, n);
  const order = values.map((_, i) => i).sort((x, y) => values[y] - values[x] || x - y);
  const largest = Math.max(values[order[0]], 0);
  const basis: Float64Array[] = [];
  for (const index of order) {
    if (basis.length === dimensions || !(values[index] > RANK_TOLERANCE * largest) || largest === 0) break;
    const direction = new Float64Array(d);
    publicPoints.forEach((point, i) => {
      const weight = vectors[i][index];
      for (let k = 0; k < d; k++) direction[k] += weight * point[k];
    });
    for (const b of basis) {
      const overlap = dot(direction, b);
      for (let k = 0; k < d; k++) direction[k] -= overlap * b[k];
    }
    const norm = Math.sqrt(dot(direction, direction));
    if (!(norm > 0)) continue;
    basis.push(direction.map((x) => x / norm));
  }
  return basis;
}

/** Coordinates of `point` in `basis` (‖result‖ ≤ ‖point‖ for an orthonormal basis). */
export function project(point: ArrayLike<number>, basis: readonly Float64Array[]): Float64Array {
  return Float64Array.from(basis, (b) => dot(b, point));
}

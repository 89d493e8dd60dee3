/**
 * Privacy-loss-distribution accounting: (ε, δ) bounds by discretised PLDs and FFT composition,
 * proven for the discretisation and the truncated tails; the FFT's float64 rounding is added as
 * an ESTIMATE (compose.ts), so the bounds are certified only up to that rounding.
 */
export { createPldAccountant, pldAccountant, type PldOptions } from './accountant';
export { UnsupportedByPldError } from './plan';

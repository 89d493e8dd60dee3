/** Privacy-loss-distribution accounting: certified (ε, δ) bounds by discretised PLDs and FFT composition. */
export { createPldAccountant, pldAccountant, type PldOptions } from './accountant';
export { UnsupportedByPldError } from './plan';

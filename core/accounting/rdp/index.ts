/** Rényi-DP accounting: per-event RDP curves, composition and conversion to (ε, δ). */
export { createRdpAccountant, rdpAccountant } from './accountant';
export { deltaFromRdp, epsilonFromRdp, type Optimum } from './conversion';
export { RdpUnsupportedEventError, rdpCurve, type RdpCurve } from './curve';
export { gaussianRdp, laplaceRdp, pureDpRdp } from './mechanisms';
export { DEFAULT_RDP_ORDERS } from './orders';
export { poissonGaussianRdp } from './poissonGaussian';
export { withoutReplacementCurve, type BaseMechanismRdp } from './withoutReplacement';

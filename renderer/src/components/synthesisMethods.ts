/** The DP synthesis methods by name, as the Synthesize form and the Budget planner offer them. */
import type { SynthesisMethod } from '../../../electron/shared/api/synthesis';

export const methodLabels: Record<SynthesisMethod, string> = {
  'dp-few-shot-gaussian': 'DP few-shot generation — Gaussian (Tang et al. 2024)',
  'dp-few-shot-exponential': 'DP few-shot generation — exponential / permute-and-flip',
  adadpsyn: 'AdaDPSyn — data-adaptive radius (Gao et al. 2025)',
};

/** One line per sampling mode of a synthesis plan (the CLI's `veil plan` and the Budget page). */
import type { SamplingComparison } from './api/planner';

const p4 = (x: number) => x.toPrecision(4);

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(seconds < 10 ? 2 : 0)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export function samplingModeLines(c: SamplingComparison): string[] {
  return c.modes.map((m) => {
    const noise = m.noise.kind === 'gaussian' ? `σ = ${p4(m.noise.sigma)}` : `ε per step = ${p4(m.noise.epsilonPerStep)}`;
    const time =
      m.secondsPerDemonstration === null || m.secondsPerJob === null
        ? 'time: not measured yet (run a synthesis job on the model first)'
        : `≈ ${duration(m.secondsPerDemonstration)} per demonstration, ${duration(m.secondsPerJob)} per job on ${c.model}`;
    const precision = m.planned ? '' : ' (1 % accountant)';
    return `${m.sampling}: ${noise} for the same ε${precision}; ε ${p4(m.epsilonAtPlannedNoise)} at the plan's noise${precision}; ${time}`;
  });
}

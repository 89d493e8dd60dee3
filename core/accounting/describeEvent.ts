/** A one-line, human-readable description of a privacy event, for tables and reports. */
import type { PrivacyEvent } from './events';

const n = (x: number) => Number(x.toPrecision(4)).toString();

export function describeEvent(event: PrivacyEvent): string {
  switch (event.kind) {
    case 'gaussian':
      return `Gaussian σ=${n(event.sigma)}, Δ=${n(event.sensitivity)}`;
    case 'discrete-gaussian':
      return `discrete Gaussian σ=${n(event.sigma)}, Δ=${n(event.sensitivity)}`;
    case 'laplace':
      return `Laplace b=${n(event.scale)}, Δ=${n(event.sensitivity)}`;
    case 'pure':
      return `${n(event.epsilon)}-DP`;
    case 'approx':
      return `(${n(event.epsilon)}, ${event.delta.toExponential(1)})-DP`;
    case 'poisson-sampled':
      return `Poisson q=${n(event.q)} of [${describeEvent(event.event)}]`;
    case 'sampled-without-replacement':
      return `${event.sampleSize} of ${event.populationSize} without replacement of [${describeEvent(event.event)}]`;
    case 'composed':
      return `${event.count} × [${describeEvent(event.event)}]`;
    case 'sequence':
      return event.events.map(describeEvent).join(' then ');
  }
}

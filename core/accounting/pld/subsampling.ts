/**
 * Poisson subsampling with rate q of a mechanism whose dominating pair (P, Q) is symmetric
 * (Gaussian, Laplace, randomised response: swapping P and Q is a relabelling of outputs).
 * Tight dominating pairs under add/remove neighbouring (Zhu, Dong & Wang 2022, "Optimal
 * accounting of differential privacy via characteristic function", AISTATS 2022):
 *   remove: ((1−q)Q + qP, Q),  δ_rem(ε) = q·δ(log(1 + (e^ε − 1)/q)) for ε ≥ log(1−q);
 *   add:    (Q, (1−q)Q + qP) ≅ (P, (1−q)P + qQ),
 *           δ_add(ε) = (1 − (1−q)e^ε)·δ(log(q·e^ε / (1 − (1−q)e^ε))) for ε < −log(1−q).
 * The subsampled loss is a monotone function of the base loss, so its tails are base tails.
 */
import type { LossDistribution } from './lossDistribution';

/** log((1 − q) + q·e^x), stable for large |x|. */
function mixLoss(q: number, x: number): number {
  if (x === Infinity) return Infinity;
  return x > 0 ? x + Math.log(q + (1 - q) * Math.exp(-x)) : Math.log1p(q * Math.expm1(x));
}

/** The base-loss threshold of the remove pair: L_rem > ε ⇔ L > log((e^ε − (1−q))/q); logQ = log q. */
function removeThreshold(q: number, logQ: number, epsilon: number): number {
  return epsilon > 0 ? epsilon + Math.log1p(-(1 - q) * Math.exp(-epsilon)) - logQ : Math.log1p(Math.max(-1, Math.expm1(epsilon) / q));
}

export function subsampledRemove(q: number, base: LossDistribution): LossDistribution {
  const floor = Math.log1p(-q);
  const logQ = Math.log(q);
  const infinityMass = q * base.infinityMass;
  return {
    infinityMass,
    minLoss: mixLoss(q, base.minLoss),
    maxLoss: mixLoss(q, base.maxLoss),
    atoms: base.atoms.map((a) => mixLoss(q, a)),
    at(epsilon) {
      if (epsilon < floor) return { survival: 1 - infinityMass, survivalQ: 1, finiteDelta: -Math.expm1(epsilon) - infinityMass };
      const b = base.at(removeThreshold(q, logQ, epsilon));
      return { survival: (1 - q) * b.survivalQ + q * b.survival, survivalQ: b.survivalQ, finiteDelta: q * b.finiteDelta };
    },
  };
}

export function subsampledAdd(q: number, base: LossDistribution): LossDistribution {
  const ceiling = -Math.log1p(-q);
  const logOneMinusQ = Math.log1p(-q);
  const logQ = Math.log(q);
  const reflect = (x: number): number => -mixLoss(q, -x);
  return {
    infinityMass: 0,
    minLoss: reflect(base.minLoss),
    maxLoss: reflect(base.maxLoss),
    atoms: base.atoms.map(reflect),
    at(epsilon) {
      if (epsilon >= ceiling) return { survival: 0, survivalQ: 0, finiteDelta: 0 };
      // L_add = −log((1−q) + q·e^{−L}) > ε ⇔ L > −removeThreshold(q, −ε).
      const b = base.at(-removeThreshold(q, logQ, -epsilon));
      const survival = b.survival + base.infinityMass;
      const weight = -Math.expm1(epsilon + logOneMinusQ);
      const inner = logQ + epsilon - Math.log1p(-(1 - q) * Math.exp(epsilon));
      const d = base.at(inner);
      return {
        survival,
        survivalQ: (1 - q) * survival + q * b.survivalQ,
        finiteDelta: weight * (d.finiteDelta + base.infinityMass),
      };
    },
  };
}

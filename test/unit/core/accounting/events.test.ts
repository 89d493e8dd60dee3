/**
 * Privacy events as data: constructor and schema defaults, rejection of malformed events
 * (the ledger and the CLI parse them from JSON), and a JSON round trip of every kind.
 */
import { describe, expect, it } from 'vitest';
import {
  approxDp, composed, discreteGaussian, gaussian, laplace, parsePrivacyEvent, poissonSampled, privacyEventSchema, pureDp,
  sampledWithoutReplacement, sequence, type PrivacyEvent,
} from '../../../../core/accounting/events';

const replaceOne = <E extends PrivacyEvent>(e: E): E => ({ ...e, neighbouring: 'replace-one' });

/** One event of every kind, under both relations where the kind allows it. */
const everyKind: PrivacyEvent[] = [
  gaussian(1.5, 2),
  discreteGaussian(3, Math.SQRT2),
  laplace(0.5),
  pureDp(0.25),
  approxDp(1, 1e-7),
  poissonSampled(0.01, gaussian(1)),
  sampledWithoutReplacement(100, 10_000, replaceOne(gaussian(1))),
  composed(laplace(2), 7),
  sequence([gaussian(1), composed(poissonSampled(0.1, pureDp(1)), 3)]),
  replaceOne(gaussian(2)),
  replaceOne(discreteGaussian(2)),
  composed(replaceOne(pureDp(1)), 0),
  sequence([]),
];

describe('privacy events', () => {
  it('constructors default to add/remove (sampling without replacement: replace-one); composites inherit', () => {
    expect(gaussian(1)).toEqual({ kind: 'gaussian', sigma: 1, sensitivity: 1, neighbouring: 'add-remove' });
    expect(discreteGaussian(2)).toEqual({ kind: 'discrete-gaussian', sigma: 2, sensitivity: 1, neighbouring: 'add-remove' });
    expect(laplace(2).neighbouring).toBe('add-remove');
    expect(sampledWithoutReplacement(1, 2, replaceOne(pureDp(1))).neighbouring).toBe('replace-one');
    expect(composed(replaceOne(laplace(1)), 2).neighbouring).toBe('replace-one');
    expect(sequence([replaceOne(pureDp(1))]).neighbouring).toBe('replace-one');
    expect(sequence([]).neighbouring).toBe('add-remove');
  });

  it('the schema fills the same defaults into bare JSON, nested events included', () => {
    expect(parsePrivacyEvent({ kind: 'pure', epsilon: 1 })).toEqual(pureDp(1));
    expect(parsePrivacyEvent({ kind: 'discrete-gaussian', sigma: 2, sensitivity: 1 })).toEqual(discreteGaussian(2));
    expect(parsePrivacyEvent({ kind: 'sampled-without-replacement', sampleSize: 1, populationSize: 2, event: { kind: 'pure', epsilon: 1, neighbouring: 'replace-one' } }).neighbouring).toBe('replace-one');
    const nested = parsePrivacyEvent({ kind: 'composed', count: 2, event: { kind: 'poisson-sampled', q: 0.5, event: { kind: 'gaussian', sigma: 1, sensitivity: 1 } } });
    expect(nested).toEqual(composed(poissonSampled(0.5, gaussian(1)), 2));
  });

  it.each([
    ['an unknown kind', { kind: 'cauchy', scale: 1 }],
    ['a non-positive σ', { kind: 'gaussian', sigma: 0, sensitivity: 1 }],
    ['an infinite σ', { kind: 'gaussian', sigma: Infinity, sensitivity: 1 }],
    ['a negative discrete-Gaussian sensitivity', { kind: 'discrete-gaussian', sigma: 1, sensitivity: -1 }],
    ['a missing Laplace scale', { kind: 'laplace', sensitivity: 1 }],
    ['a negative ε', { kind: 'pure', epsilon: -0.1 }],
    ['δ > 1', { kind: 'approx', epsilon: 1, delta: 1.5 }],
    ['q = 0', { kind: 'poisson-sampled', q: 0, event: { kind: 'pure', epsilon: 1 } }],
    ['q > 1', { kind: 'poisson-sampled', q: 1.01, event: { kind: 'pure', epsilon: 1 } }],
    ['a sample larger than the population', { kind: 'sampled-without-replacement', sampleSize: 3, populationSize: 2, event: { kind: 'pure', epsilon: 1 } }],
    ['a fractional sample size', { kind: 'sampled-without-replacement', sampleSize: 1.5, populationSize: 2, event: { kind: 'pure', epsilon: 1 } }],
    ['a fractional count', { kind: 'composed', count: 2.5, event: { kind: 'pure', epsilon: 1 } }],
    ['a negative count', { kind: 'composed', count: -1, event: { kind: 'pure', epsilon: 1 } }],
    ['an unknown relation', { kind: 'pure', epsilon: 1, neighbouring: 'swap-two' }],
    ['a malformed nested event', { kind: 'sequence', events: [{ kind: 'pure', epsilon: 1 }, { kind: 'gaussian', sigma: -1, sensitivity: 1 }] }],
    ['events that are not a list', { kind: 'sequence', events: { kind: 'pure', epsilon: 1 } }],
    ['a number', 3],
    ['null', null],
  ])('rejects %s', (_, json) => {
    expect(() => parsePrivacyEvent(json)).toThrow();
  });

  it('names the bad field of a nested event', () => {
    const bad = { kind: 'sequence', events: [{ kind: 'pure', epsilon: 1 }, { kind: 'gaussian', sigma: -1, sensitivity: 1 }] };
    const result = privacyEventSchema.safeParse(bad);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(['events', 1, 'sigma']);
  });

  it('every kind survives a JSON round trip unchanged (as the ledger stores it)', () => {
    const kinds = new Set<string>();
    const visit = (e: PrivacyEvent): void => {
      kinds.add(e.kind);
      if ('event' in e) visit(e.event);
      if (e.kind === 'sequence') e.events.forEach(visit);
    };
    everyKind.forEach(visit);
    expect([...kinds].sort()).toEqual(['approx', 'composed', 'discrete-gaussian', 'gaussian', 'laplace', 'poisson-sampled', 'pure', 'sampled-without-replacement', 'sequence']);
    for (const event of [...everyKind, sequence(everyKind.filter((e) => e.neighbouring === 'add-remove'))]) {
      expect(parsePrivacyEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
    }
  });
});

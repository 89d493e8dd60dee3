/**
 * Veil's request pattern on an OpenAI-compatible server (issue 18, item 1: "the same for the
 * OpenAI-compatible backend"), against the fake server of the tests (in-process HTTP on
 * 127.0.0.1, serving the reference learner and its tokenizer, logprobs capped at 20 as vLLM)
 * priced as a prefix-caching server would be (test/integration/model/simulatedGpu.ts), at the
 * two price sets of COSTS below: per request, per uncached prompt token (16-token blocks) and
 * per generated token; prompt-logprob (echo) requests do not read the cache, as in vLLM v1. It
 * measures what Veil makes a server do — requests, prompt tokens sent, tokens prefilled, decodes — and
 * the seconds those would cost at these assumed prices. It does not measure a GPU: real
 * latencies and throughputs vary with the model, the card and the load; the counts do not.
 * The wall seconds reported beside are this machine's (client + fake server's CPU).
 *
 * DP few-shot synthesis: M = 10 teachers, N = 2, K = 100 (the server returns 20), T = 64,
 * both sampling modes; per demonstration, and per step (the per-demonstration mode's first
 * step, which prefills the teachers, apart). Private answering: vote, M = 10, 2 shots,
 * 10 queries, on a server with /tokenize (labels read as the prompt's next token) and without
 * (every label echoed with its prompt, as on every server before). Pools: SpamAssassin e-mails
 * (not the learner's background corpus).
 */
import { generateDemonstration, type SamplingMode } from '../core/icl/demonstration';
import { answerQuery } from '../core/icl/answering/answerQuery';
import { tangAggregator } from '../core/icl/dpFewShot';
import { inMemoryPool } from '../core/icl/privatePool';
import { defaultTemplate } from '../core/icl/prompts';
import { cryptoRandom } from '../core/random/cryptoRandom';
import { OpenAiClient } from '../electron/services/model/openai/openaiClient';
import { RemoteModel } from '../electron/services/model/openai/remoteModel';
import { loadReferenceLearner } from '../electron/services/model/referenceResources';
import { isBackgroundEmail, loadSpamAssassin } from '../scripts/model/spamAssassin';
import { startOpenAiTestServer } from '../test/integration/model/openaiTestServer';
import { addCounts, countsSince, serverSeconds, SimulatedGpu, zeroCounts, type GpuCounts } from '../test/integration/model/simulatedGpu';
import { tableRow } from './table';

/**
 * Assumed prices. `gpu7b`: a LAN round trip with scheduling, ~5k prefill tokens/s and ~50 decode
 * tokens/s (a 7B model on one data-centre GPU); `gpu70b`: the same round trip, ~1k prefill
 * tokens/s, ~17 decode tokens/s (a 70B model, or a smaller one on a slower card). The table uses gpu7b.
 */
const COSTS = {
  gpu7b: { requestSeconds: 0.01, prefillSecondsPerToken: 0.0002, decodeSecondsPerToken: 0.02, blockTokens: 16 },
  gpu70b: { requestSeconds: 0.01, prefillSecondsPerToken: 0.001, decodeSecondsPerToken: 0.06, blockTokens: 16 },
};
const priced = (counts: GpuCounts) => Object.fromEntries(Object.entries(COSTS).map(([name, costs]) => [name, serverSeconds(counts, costs)]));
const rounded = (prices: Record<string, number>, digits = 3) => Object.fromEntries(Object.entries(prices).map(([k, v]) => [k, +v.toFixed(digits)]));
const SHAPE = { teachers: 10, perTeacher: 2, topK: 100, maxTokens: 64 };
const DEMONSTRATIONS = 4;
const QUERIES = 10;
const VOTE = { ensemble: 10, shots: 2, noise: 2 };

const perUnit = (c: GpuCounts, units: number) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, +(v / units).toFixed(1)]));

async function connect(gpu: SimulatedGpu, noTokenizer = false) {
  const server = await startOpenAiTestServer(await loadReferenceLearner(), { maxLogprobs: 20, gpu, noTokenizer });
  const model = await RemoteModel.connect(new OpenAiClient({ baseUrl: server.baseUrl, model: 'reference' }, gpu.clientFetch()));
  gpu.reset(); // the connection's probes are not the job's
  return { server, model };
}

/** One sampling mode: DEMONSTRATIONS demonstrations on a fresh (cold) server, their counts and simulated seconds, first steps apart. */
async function synthesis(sampling: SamplingMode, spam: string[]) {
  const gpu = new SimulatedGpu(COSTS.gpu7b);
  const { server, model } = await connect(gpu);
  const template = { ...defaultTemplate('Write an e-mail of the given class.'), maxExampleChars: 300 };
  let steps = 0;
  let firstSteps = zeroCounts();
  const wall: number[] = [];
  try {
    for (let i = 0; i < DEMONSTRATIONS; i++) {
      const before = gpu.counts;
      const start = performance.now();
      const demo = await generateDemonstration({
        model, template, pool: inMemoryPool(spam), label: 'spam', shape: { ...SHAPE, sampling }, aggregator: tangAggregator({ kind: 'gaussian', sigma: 1 }), random: cryptoRandom,
        onToken: (_text, step) => {
          if (step === 1) firstSteps = addCounts(firstSteps, countsSince(gpu.counts, before));
        },
      });
      wall.push((performance.now() - start) / 1000);
      if (demo.steps === 1) firstSteps = addCounts(firstSteps, countsSince(gpu.counts, before)); // ended at its first step (no onToken)
      steps += demo.steps;
    }
  } finally {
    await server.close();
  }
  const all = gpu.counts;
  const later = countsSince(all, firstSteps);
  const laterSteps = steps - DEMONSTRATIONS;
  const [first, rest] = [priced(firstSteps), priced(later)];
  // A demonstration of T_max steps: one first step and T_max − 1 later ones, at the measured means.
  const atTmax = Object.fromEntries(Object.keys(COSTS).map((k) => [k, first[k] / DEMONSTRATIONS + (rest[k] / laterSteps) * (SHAPE.maxTokens - 1)]));
  return {
    demonstrations: DEMONSTRATIONS,
    steps,
    perStep: perUnit(all, steps),
    firstStep: perUnit(firstSteps, DEMONSTRATIONS),
    laterStep: perUnit(later, laterSteps),
    simulatedSecondsPerDemonstrationAtTmax: rounded(atTmax),
    wallSecondsPerDemonstration: wall.map((s) => +s.toFixed(2)),
  };
}

/** Vote answering; `noTokenizer`: a server without /tokenize, where every label is echoed (as every server's were before). */
async function vote(emails: { text: string; label: string }[], queries: string[], noTokenizer: boolean) {
  const gpu = new SimulatedGpu(COSTS.gpu7b);
  const { server, model } = await connect(gpu, noTokenizer);
  const pool = inMemoryPool(emails);
  const start = performance.now();
  try {
    for (const query of queries) {
      await answerQuery({
        model, pool, template: { ...defaultTemplate('Classify each text as one of: spam, ham.'), maxExampleChars: 300 }, task: { kind: 'classification', labels: ['spam', 'ham'] },
        method: 'vote', ensemble: VOTE.ensemble, shots: VOTE.shots, q: Math.min(1, (VOTE.ensemble * VOTE.shots) / pool.units), noise: VOTE.noise, ptrDelta: 1e-7,
        keywords: 5, candidates: 10, candidateTemperature: 1, maxTokens: 24, random: cryptoRandom,
      }, query);
    }
  } finally {
    await server.close();
  }
  const perQuery = Object.fromEntries(Object.entries(priced(gpu.counts)).map(([name, seconds]) => [name, seconds / queries.length]));
  return {
    queries: queries.length,
    perQuery: perUnit(gpu.counts, queries.length),
    simulatedSecondsPerQuery: rounded(perQuery),
    wallSecondsPerQuery: +((performance.now() - start) / 1000 / queries.length).toFixed(3),
  };
}

export async function run(): Promise<object> {
  const emails = loadSpamAssassin(1200).filter((e) => !isBackgroundEmail(e));
  const spam = emails.filter((e) => e.label === 'spam').map((e) => e.text);
  const perToken = await synthesis('per-token', spam);
  const perDemonstration = await synthesis('per-demonstration', spam);
  const [mail, queries] = [emails.slice(0, 400).map((e) => ({ text: e.text, label: e.label })), emails.slice(400, 400 + QUERIES).map((e) => e.text.slice(0, 300))];
  const labelsRead = await vote(mail, queries, false);
  const labelsEchoed = await vote(mail, queries, true);
  const speedup = (a: Record<string, number>, b: Record<string, number>) => rounded(Object.fromEntries(Object.keys(a).map((k) => [k, a[k] / b[k]])), 2);
  const tokenSeconds = perToken.simulatedSecondsPerDemonstrationAtTmax.gpu7b;
  const echoSeconds = labelsEchoed.simulatedSecondsPerQuery.gpu7b;
  return {
    setup: { ...SHAPE, costs: COSTS, serverMaxLogprobs: 20, vote: { ...VOTE, queries: QUERIES }, note: 'simulated seconds = the request pattern priced at `costs` (simulatedGpu.ts), not a GPU measurement' },
    synthesis: {
      perToken,
      perDemonstration,
      perDemonstrationSpeedup: speedup(perToken.simulatedSecondsPerDemonstrationAtTmax, perDemonstration.simulatedSecondsPerDemonstrationAtTmax),
      prefillRatio: +(perToken.perStep.prefilledTokens / perDemonstration.perStep.prefilledTokens).toFixed(1),
    },
    answering: {
      vote: { labelsRead, labelsEchoed, speedup: speedup(labelsEchoed.simulatedSecondsPerQuery, labelsRead.simulatedSecondsPerQuery) },
    },
    table: [
      tableRow('remote DP few-shot demonstration, per-token (simulated prefix-caching server, T = 64)', tokenSeconds, null),
      tableRow('remote DP few-shot demonstration, per-demonstration (simulated, T = 64)', perDemonstration.simulatedSecondsPerDemonstrationAtTmax.gpu7b, null, { what: 'remote per-token', seconds: tokenSeconds }),
      tableRow('remote vote query, M = 10, labels read as next tokens (simulated)', labelsRead.simulatedSecondsPerQuery.gpu7b, null, { what: 'labels echoed (before; servers without /tokenize)', seconds: echoSeconds }),
    ],
  };
}

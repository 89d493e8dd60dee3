/** The reference learner honours the LanguageModel contract and learns from its prompt. */
import { describe, expect, it } from 'vitest';
import { parseDemonstrations } from '../../../../core/model/reference/demonstrations';
import { naiveBayesPosterior } from '../../../../core/model/reference/naiveBayes';
import { seededRandom } from '../../../../core/random/seededRandom';
import { referenceLearner } from './referenceFixture';

const model = referenceLearner();
const fewShot =
  'Classify each message.\n\n' +
  'Message: cheap pills and free money, click now\nAnswer: spam\n\n' +
  'Message: the patch fixes the build, see the mailing list\nAnswer: ham\n\n' +
  'Message: win money now, free offer, click here\nAnswer: spam\n\n' +
  'Message: meeting notes about the patch review\nAnswer: ham\n\n' +
  'Message: free money offer, click\nAnswer:';

describe('reference learner', () => {
  it('is labelled a baseline and declares its capabilities', () => {
    expect(model.info).toMatchObject({ backend: 'reference', kind: 'baseline', embeddingDimension: 512 });
    expect(model.info.name).toMatch(/not an LLM/);
    expect(model.capabilities).toMatchObject({ fullDistribution: true, restrictedDistribution: true, scoreLabels: true, embeddings: true });
  });

  it('gives a full next-token distribution that sums to 1 over the whole vocabulary', async () => {
    const { probs, tokens } = await model.nextTokenDistribution('The quick brown fox');
    expect(tokens).toBeUndefined();
    expect(probs.length).toBe(model.info.vocabularySize);
    expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Math.min(...probs)).toBeGreaterThan(0);
  });

  it('renormalises a restricted distribution over exactly the requested set', async () => {
    const ids = [...(await model.tokenize(' spam ham the')), 65];
    const full = (await model.nextTokenDistribution(fewShot)).probs;
    const r = await model.nextTokenDistribution(fewShot, { restrictTo: ids });
    expect(r.tokens).toEqual(ids);
    expect(r.probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    const mass = ids.reduce((a, t) => a + full[t], 0);
    ids.forEach((t, i) => expect(r.probs[i]).toBeCloseTo(full[t] / mass, 14));
    await expect(model.nextTokenDistribution(fewShot, { restrictTo: [1, 1] })).rejects.toThrow(/twice/);
  });

  it('evaluates a batch exactly like one prompt at a time, for text or token prompts', async () => {
    const prompts = ['Hello there', fewShot, 'Subject: meeting'];
    const batch = await model.nextTokenDistributions(prompts);
    for (let i = 0; i < prompts.length; i++) expect(batch[i].probs).toEqual((await model.nextTokenDistribution(prompts[i])).probs);
    expect((await model.nextTokenDistribution(await model.tokenize(fewShot))).probs).toEqual(batch[1].probs);
  });

  it('marks its end-of-text token, and only it, as special among the top tokens', async () => {
    const top = await model.topNextTokens('Hello there', model.info.vocabularySize ?? 0);
    expect(top.length).toBe(model.info.vocabularySize);
    expect(top.filter((t) => t.special)).toEqual([expect.objectContaining({ text: '<eos>', special: 'end' })]);
  });

  it('follows its demonstrations: the answer is a label, chosen by the demonstrations', async () => {
    const top = await model.topNextTokens(fewShot, 2);
    expect(top.map((t) => t.text)).toEqual([' spam', ' ham']);
    expect(top[0].prob + top[1].prob).toBeGreaterThan(0.7);
    const flipped = fewShot.replace('free money offer, click', 'notes from the patch review meeting');
    expect((await model.topNextTokens(flipped, 1))[0].text).toBe(' ham');
  });

  it('scores labels as summed token log-probabilities, multi-token labels included', async () => {
    const [spam, ham] = await model.scoreLabels(fewShot, [' spam', ' ham']);
    expect(spam).toBeGreaterThan(ham);
    const multi = ' spamalicious offer';
    const tokens = await model.tokenize(multi);
    expect(tokens.length).toBeGreaterThan(1);
    const [score] = await model.scoreLabels(fewShot, [multi]);
    let chain = 0;
    const prompt = await model.tokenize(fewShot);
    for (let i = 0; i < tokens.length; i++) chain += Math.log((await model.nextTokenDistribution([...prompt, ...tokens.slice(0, i)])).probs[tokens[i]]);
    expect(score).toBeCloseTo(chain, 10);
  });

  it('generates deterministically when greedy, honours stop strings, max tokens and cancellation', async () => {
    const a = await model.generate(fewShot, { maxTokens: 12 });
    const b = await model.generate(fewShot, { maxTokens: 12 });
    expect(a).toEqual(b);
    expect(a.text.startsWith(' spam')).toBe(true);
    const stopped = await model.generate(fewShot, { maxTokens: 40, stop: ['\n'] });
    expect(stopped.finishReason).toBe('stop');
    expect(stopped.text).toBe(' spam');
    const sampled = await model.generate('Subject:', { maxTokens: 5, temperature: 1, random: seededRandom(9) });
    expect(sampled.tokens).toHaveLength(5);
    expect(sampled).toEqual(await model.generate('Subject:', { maxTokens: 5, temperature: 1, random: seededRandom(9) }));
    const controller = new AbortController();
    controller.abort();
    expect((await model.generate('Subject:', { maxTokens: 5, signal: controller.signal })).finishReason).toBe('cancelled');
  });

  it('embeds texts as unit vectors that put similar texts closer', async () => {
    const [a, b, c, empty] = await model.embed(['free money offer click now', 'click now for a free money offer', 'the build failed on the patch', '']);
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
    for (const v of [a, b, c, empty]) expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 6);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });
});

describe('demonstrations and naive Bayes', () => {
  it('finds demonstrations, labels and the query from the cue on the last line', () => {
    const ctx = parseDemonstrations(fewShot)!;
    expect(ctx.cue).toBe('Answer:');
    expect(ctx.demonstrations.map((d) => d.label)).toEqual(['spam', 'ham', 'spam', 'ham']);
    expect(ctx.demonstrations[0].text).toBe('Message: cheap pills and free money, click now\n');
    expect(ctx.demonstrations[1].line).toBe('Answer: ham');
    expect(ctx.query).toBe('Message: free money offer, click\n');
    expect(parseDemonstrations('no demonstrations here\nAnswer:')).toBeNull();
    expect(parseDemonstrations('ends with a newline\n')).toBeNull();
  });

  it('learns only from the demonstrations', () => {
    const demos = [
      { text: 'free money', label: 'spam' },
      { text: 'patch review', label: 'ham' },
    ];
    const p = naiveBayesPosterior(demos, 'free money now', ['spam', 'ham']);
    expect(p[0]).toBeGreaterThan(0.5);
    expect(p[0] + p[1]).toBeCloseTo(1, 15);
    const none = naiveBayesPosterior([], 'free money', ['spam', 'ham']);
    expect(none[0]).toBeCloseTo(0.5, 15);
  });
});

/**
 * Augmentation jobs (docs/sga.md, "Augmenting a thin public set"): price (augmentationPricing.ts)
 * → check the model → reserve the DPM event in the ledger (refused over budget, nothing
 * written) → as a job with progress and cancel: embed one point per privacy unit of the whole
 * private split and the public examples with the job's model (the embedding call answering
 * uses), release DPM centres, take the nearest public examples as seeds, have the model write
 * M new examples from the seeds alone → in one transaction: commit with the certificate's release
 * hash (it covers the new examples and their counts), insert all of them into the PUBLIC split
 * tagged 'generated' and 'augmentation-<run id>', store the certificate with the examples (the
 * exported veil.augmentation/v1 document). A text another write added meanwhile rolls that
 * transaction back and is written again, so the paid-for release is not lost.
 * A cancelled, failed or crashed job keeps its reservation charged. Private text is read only to
 * be embedded; it never enters a prompt, a log or the run's row.
 */
import { accountEpsilon } from '../../../core/accounting';
import { augmentationContentHash, augmentationReleaseHash, type AugmentationDocument, type GeneratedExample } from '../../../core/export/augmentationFormat';
import { canonicalJson } from '../../../core/export/canonicalJson';
import { verifyAugmentation } from '../../../core/export/verifyAugmentation';
import { augmentationSeeds, unitPoint } from '../../../core/icl/augmentation/augmentationSeeds';
import { DEFAULT_SGA_SETTINGS } from '../../../core/icl/answering/sga/semanticGroups';
import type { LanguageModel } from '../../../core/model/languageModel';
import { cryptoRandom } from '../../../core/random/cryptoRandom';
import type { AugmentPlan, AugmentRequest } from '../../shared/api/augmentation';
import type { NewRecord } from '../../shared/api/vault';
import type { ServiceContext } from '../context';
import type { JobContext } from '../jobs/jobManager';
import { privacyUnitCount } from '../ledger/datasets';
import type { LedgerService } from '../ledger/ledgerService';
import { budgetState, certificateLedgerView } from '../ledger/releaseLedger';
import { jobModel, publicReason, type ModelIdentity } from '../model/jobModel';
import { RefusalError } from '../refusalError';
import type { LabelledExample, SynthesisDataset, SynthesisSource } from '../synthesis/synthesisSource';
import { publicExampleCount, publicExamples as readPublicExamples } from '../answering/publicExamples';
import { PUBLIC_EXAMPLES_LIMIT } from '../answering/sgaSettings';
import { heldHashes } from '../vault/records';
import type { VaultService } from '../vault/vaultService';
import type { AugmentationRunStore } from './augmentationRunStore';
import { augmentationInstruction, augmentationTags, exampleWriter, seedExamples, WRITE_ATTEMPTS } from './exampleWriter';
import { priceAugmentation } from './augmentationPricing';

/**
 * Texts per embedding call: public texts always; private texts only on a model whose embeddings
 * are batch-invariant (`capabilities.batchInvariant`), else one per call (a failed
 * private call is made again one text at a time).
 */
const EMBED_CHUNK = 32;
/**
 * The certificate's mechanism. The written-again rule (exampleWriter.ts) reads the dataset's texts, private
 * ones included, so it is named: outside ε, with the chance that the model writes a private record's
 * text verbatim from public seeds (the vault's one-text-per-dataset rule leaves no private-free choice).
 */
const MECHANISM =
  'DPM clustering (private Mondrian) of one embedding per privacy unit of the whole private split, no subsampling; seeds = public examples nearest the noisy centres; ' +
  `a written text equal to one the dataset holds (any split) is written again, up to ${WRITE_ATTEMPTS} times, then left out (generated.added below generated.requested can reflect such a match) — outside ε, with the probability that the model writes a private text verbatim from public seeds`;

interface Prepared {
  dataset: SynthesisDataset;
  plan: AugmentPlan;
  publicExamples: LabelledExample[];
  model: { model: LanguageModel; identity: ModelIdentity };
}

export class AugmentationService {
  constructor(
    private readonly ctx: ServiceContext,
    readonly runs: AugmentationRunStore,
    private readonly ledger: LedgerService,
    private readonly source: SynthesisSource,
    private readonly vault: VaultService,
  ) {}

  /** Prices a request (public examples counted, not read); refused (nothing reserved) for an empty private split or no public examples. */
  async plan(request: AugmentRequest): Promise<{ dataset: SynthesisDataset; plan: AugmentPlan }> {
    const dataset = await this.source.dataset(request.dataset);
    return { dataset, plan: await this.price(request, dataset, await publicExampleCount(this.ledger.db, dataset, PUBLIC_EXAMPLES_LIMIT)) };
  }

  private async price(request: AugmentRequest, dataset: SynthesisDataset, publicCount: number): Promise<AugmentPlan> {
    const units = (await privacyUnitCount(this.ledger.db, dataset.id)) ?? 0;
    if (units === 0) throw new RefusalError(`the private split of "${dataset.name}" is empty: there are no centres to estimate`);
    if (publicCount === 0) throw new RefusalError(`"${dataset.name}" has no public examples (its public split, or a public source: veil public-source set): augmentation seeds from public examples`);
    return priceAugmentation(request, units, await budgetState(this.ledger, dataset.id), publicCount);
  }

  /** Reserves the event (or throws, writing nothing) and starts the job. */
  async start(request: AugmentRequest): Promise<{ jobId: string; runId: number }> {
    const dataset = await this.source.dataset(request.dataset);
    const publicExamples = await readPublicExamples(this.ledger.db, this.source, dataset, PUBLIC_EXAMPLES_LIMIT);
    const plan = await this.price(request, dataset, publicExamples.length); // priced on the seeds' pool as read
    const model = await jobModel(this.ctx); // before reserving: a missing or unfit model charges nothing
    if (!model.model.capabilities.embeddings) throw new RefusalError('the active model gives no embeddings, which augmentation needs');
    if (!model.model.capabilities.generate) throw new RefusalError('the active model cannot generate text, which augmentation needs');
    const { jobId, prepared } = await this.ctx.jobs.launch(
      'augmentation',
      async (jobId) => {
        const reservation = await this.ledger.reserve(dataset.id, plan.event, {
          purpose: `public-set augmentation: DPM centres of the private split (depth ${plan.depth}), ${request.examples} generated examples`,
          parameters: { mechanism: 'dpm', rho: plan.rho, depth: plan.depth, epsilon: request.epsilon, delta: plan.delta, examples: request.examples },
          jobId,
          privacyUnit: dataset.privacyUnit,
        });
        const runId = await this.runs.create(request, jobId);
        await this.runs.setLedgerEntry(runId, reservation.id);
        return { runId, reservationId: reservation.id };
      },
      (job, { runId, reservationId }) => this.augment(job, runId, reservationId, request, { dataset, plan, publicExamples, model }),
    );
    return { jobId, runId: prepared.runId };
  }

  private async augment(job: JobContext, runId: number, reservationId: number, request: AugmentRequest, prep: Prepared) {
    const { dataset, plan, publicExamples } = prep;
    try {
      const embed = (texts: string[], stage: string) => this.embedAll(job, prep.model.model, texts, stage);
      const atStart = await this.vault.dataset(dataset.id);
      const pool = await this.vault.pool(atStart, undefined);
      // q = 1: every unit, no randomness drawn; a unit's records (≤ the subject cap) together.
      const units = await pool.sample(1, cryptoRandom);
      const publicEmbeddings = await embed(publicExamples.map((e) => e.text), 'embedding the public split');
      const flat = await this.embedPrivate(job, prep.model.model, units.flatMap((u) => u.map((r) => r.text)), publicEmbeddings[0]?.length ?? 0);
      let at = 0;
      const points = units.map((u) => {
        const own = flat.slice(at, (at += u.length)).filter((e): e is Float32Array => e !== null);
        return own.length === 0 ? null : unitPoint(own);
      });
      job.throwIfCancelled();
      const released = augmentationSeeds(points, publicEmbeddings, plan.rho, cryptoRandom, { ...DEFAULT_SGA_SETTINGS, depth: plan.depth });
      if (canonicalJson(released.event) !== canonicalJson(plan.event)) throw new Error('the DPM release charged another event than the one reserved');
      // No cluster survived the noise: seed from the public sample itself (post-processing of nothing private).
      const { seeds, fallback } = seedExamples(dataset, publicExamples, released.seeds, plan.depth);
      const write = await exampleWriter({
        model: prep.model.model, source: this.source, dataset, instruction: augmentationInstruction(dataset, atStart.description),
        seeds, maxTokens: request.maxTokens, tags: augmentationTags(runId), holds: async (hash) => (await heldHashes(this.ledger.db, dataset.id, [hash])).has(hash),
        signal: job.signal, throwIfCancelled: () => job.throwIfCancelled(),
      });
      let written: { index: number; record: NewRecord }[] = [];
      for (let i = 0; i < request.examples; i++) {
        job.progress('writing examples', i, request.examples, `example ${i + 1} of ${request.examples}`);
        const record = await write(i);
        if (record) written.push({ index: i, record });
      }
      const vaultDataset = await this.vault.dataset(dataset.id); // as it is now, after the writing (labels may have changed)
      // The commit, the insert and the run's certificate are one transaction: all written or none.
      // A text another write added since it was checked (the write lock is not held while the model
      // writes) rolls it back, committing nothing; that example is written again (given up after
      // WRITE_ATTEMPTS rounds) and the same release, already paid for, is committed with the new set.
      for (let round = 1; ; round++) {
        job.throwIfCancelled();
        const records = written.map((w) => w.record);
        const examples: GeneratedExample[] = records.map((r) => ({ text: r.text, label: r.label ?? null, output: r.output ?? null }));
        // Everything but the commit-bound fields is fixed before the commit, which records its release hash;
        // the counts too: every example is added or none (addAllRecordsIn).
        const issued: Omit<AugmentationDocument, 'ledger' | 'releaseHash'> = {
          format: 'veil.augmentation/v1', dataset: dataset.name, issuedAt: new Date().toISOString(), privacyUnit: dataset.privacyUnit, neighbouring: 'add-remove',
          mechanism: MECHANISM,
          rho: plan.rho, depth: plan.depth, event: plan.event, epsilon: plan.epsilon, delta: plan.delta, accountant: plan.accountant,
          model: { backend: prep.model.identity.backend, name: prep.model.identity.name },
          seeds: { count: seeds.length, noisyCounts: released.noisyCounts, fallback },
          generated: { requested: request.examples, added: records.length, duplicates: 0, tags: augmentationTags(runId) },
          contentHash: await augmentationContentHash(examples), examples,
        };
        const releaseHash = await augmentationReleaseHash(issued);
        try {
          const { entry } = await this.ledger.commitWith(reservationId, { outputHash: releaseHash }, async (tx, commit) => {
            const held = records.length > 0 ? await this.vault.addAllRecordsIn(tx, vaultDataset, records) : [];
            if (held.length > 0) throw new HeldTexts(held);
            await this.runs.setLedgerEntry(runId, commit.id, tx);
            await this.runs.succeed(runId, { ...issued, releaseHash, ledger: { entryId: commit.id, entryHash: commit.entryHash } }, tx);
          });
          if (records.length > 0) this.vault.changed(dataset.id, 'records added');
          return { runId, added: records.length, ledgerEntryId: entry.id };
        } catch (error) {
          if (!(error instanceof HeldTexts)) throw error;
          const held = new Set(error.held);
          const next: typeof written = [];
          for (const [k, w] of written.entries()) {
            if (!held.has(k)) next.push(w);
            else if (round < WRITE_ATTEMPTS) {
              const record = await write(w.index);
              if (record) next.push({ index: w.index, record });
            }
          }
          written = next;
        }
      }
    } catch (error) {
      const cancelled = job.signal.aborted;
      await this.runs.fail(runId, cancelled ? 'cancelled' : 'failed', `${cancelled ? 'cancelled' : publicReason(error)}; the reserved budget stays spent`);
      throw error;
    }
  }

  /** The run's veil.augmentation/v1 document as a file (refused for a run that issued none). */
  async export(id: number): Promise<{ fileName: string; mediaType: string; content: string }> {
    const run = await this.runs.get(id);
    const document = await this.runs.document(id);
    if (!document) {
      const why = run.status !== 'succeeded' ? `it ${run.status === 'running' ? 'is still running' : `ended ${run.status}`}` : 'it was issued before certificates kept their generated examples';
      throw new RefusalError(`augmentation run ${id} has no exportable certificate: ${why}`);
    }
    return { fileName: `${run.dataset}-augmentation-${id}.json`, mediaType: 'application/json', content: `${JSON.stringify(document, null, 2)}\n` };
  }

  /** Verification of an exported document against this data directory's ledger. */
  verify(text: string) {
    return verifyAugmentation(text, {
      epsilonOf: (event, delta) => accountEpsilon(event, delta).bounds,
      ledger: certificateLedgerView(this.ledger, (entryId) => this.runs.documentByLedgerEntry(entryId)),
    });
  }

  private async embedAll(job: JobContext, model: LanguageModel, texts: string[], stage: string): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += EMBED_CHUNK) {
      job.throwIfCancelled();
      job.progress(stage, i, texts.length);
      out.push(...(await model.embed(texts.slice(i, i + EMBED_CHUNK), job.signal)));
    }
    return out;
  }

  /**
   * The private split's embeddings. A text the model cannot embed (too long for its context,
   * refused by a server, malformed) is left out of its unit's point instead of failing the job,
   * whose outcome must not depend on one unit outside the DP release (ARCHITECTURE §4): a call
   * that fails as a whole is made again one text at a time, so only the failing text is left out.
   * EMBED_CHUNK texts per call only where a text's vector does not depend on its chunk
   * (`batchInvariant`: llama.cpp, whose host embeds one text at a time, and the
   * reference learner's TF-IDF); otherwise (a remote server, which may batch on a GPU) one text
   * per call, so that one unit cannot move another's point (the DPM sensitivity: each unit
   * changes its own point only).
   */
  private async embedPrivate(job: JobContext, model: LanguageModel, texts: string[], dimension: number): Promise<(Float32Array | null)[]> {
    const chunkSize = model.capabilities.batchInvariant === true ? EMBED_CHUNK : 1;
    const valid = (vector: Float32Array | undefined) => (vector && vector.length === dimension && vector.every(Number.isFinite) ? vector : null);
    const embedded = async (chunk: string[]): Promise<(Float32Array | undefined)[] | null> => {
      try {
        const vectors = await model.embed(chunk, job.signal);
        return vectors.length === chunk.length ? vectors : null;
      } catch (error) {
        if (job.signal.aborted) throw error;
        return null;
      }
    };
    const out: (Float32Array | null)[] = [];
    for (let i = 0; i < texts.length; i += chunkSize) {
      job.throwIfCancelled();
      job.progress('embedding the private split', i, texts.length);
      const chunk = texts.slice(i, i + chunkSize);
      const vectors = await embedded(chunk);
      if (vectors) out.push(...vectors.map(valid));
      else if (chunk.length === 1) out.push(null);
      else for (const text of chunk) out.push(valid((await embedded([text]))?.[0]));
    }
    return out;
  }
}

/** Thrown inside the commit's transaction to roll it back: the records whose texts the dataset holds now. */
class HeldTexts extends Error {
  constructor(readonly held: number[]) {
    super(`${held.length} generated texts were added by another write meanwhile`);
  }
}

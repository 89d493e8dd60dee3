/**
 * Turns an audit's target specs into attackable targets with their member / non-member
 * designs (core/audit/membership.ts) and, where the audit can re-run the mechanism, the
 * mechanism the one-run canary audit runs on a working copy (canaryMechanism.ts):
 *
 * - baseline: plain few-shot prompts of real private records; members = their demonstrations.
 * - run:N / a veil.dp-prompt/v1 file: the synthetic prompt; members = private records of its
 *   pools (its labels), non-members = held-out records.
 * - a brought prompt: members = private records whose text it contains (non-members: other
 *   private records); when it contains none, audited like a DP prompt (pool vs held-out).
 */
import { dpPromptSchema, type DpPromptExport } from '../../../core/export/dpPromptFormat';
import type { Candidate } from '../../../core/audit/attacks';
import { baselineDesign, poolDesign, type Balance } from '../../../core/audit/membership';
import type { AuditGroup } from '../../../core/audit/runAudit';
import { promptTarget } from '../../../core/audit/target';
import { defaultTemplate, renderFewShotPrompt } from '../../../core/icl/prompts';
import type { LanguageModel } from '../../../core/model/languageModel';
import type { RandomSource } from '../../../core/random/randomSource';
import type { AuditTargetSpec } from '../../shared/api/audit';
import type { Database } from '../db/database';
import { RefusalError } from '../refusalError';
import { templateFor } from '../synthesis/synthesisPricing';
import type { SynthesisDataset, SynthesisSource } from '../synthesis/synthesisSource';
import type { SynthesisService } from '../synthesis/synthesisService';
import { answeringAuditTarget } from './answeringAuditTarget';
import { targetName } from './auditStore';

export interface AuditData {
  dataset: SynthesisDataset;
  privateRecords: Candidate[];
  heldOut: Candidate[];
}

export async function loadAuditData(db: Database, dataset: SynthesisDataset): Promise<AuditData> {
  const split = (name: string) =>
    db.all<Candidate>('SELECT text, label FROM records WHERE dataset_id = $id AND split = $split ORDER BY id', { id: dataset.id, split: name });
  return { dataset, privateRecords: await split('private'), heldOut: await split('held-out') };
}

export interface ResolvedTarget {
  kind: AuditTargetSpec['kind'];
  name: string;
  accountedEpsilon: number | null;
  delta: number | null;
  design: string;
  groups: AuditGroup[];
  /** The stored run whose mechanism a canary audit re-runs (baseline: null, non-private). */
  runId: number | null;
}

export interface TargetContext {
  data: AuditData;
  model: LanguageModel;
  synthesis: SynthesisService;
  /** The private split as answering samples it (target c). */
  source: SynthesisSource;
  members: number;
  balance: Balance;
  random: RandomSource;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const ratio = (b: Balance) => (b === 'balanced' ? '1:1' : '1:4');

function poolTarget(ctx: TargetContext, prompt: string, instruction: string, labels: readonly string[]): { groups: AuditGroup[]; design: string } {
  const pool = ctx.data.privateRecords.filter((r) => labels.length === 0 || (r.label !== null && labels.includes(r.label)));
  const candidates = poolDesign(pool, ctx.data.heldOut, ctx.members, ctx.balance, ctx.random);
  const target = promptTarget(ctx.model, defaultTemplate(instruction), prompt);
  return { groups: [{ target, candidates }], design: `members: private records of the pools; non-members: held-out records (${ratio(ctx.balance)})` };
}

function documentTarget(ctx: TargetContext, document: DpPromptExport) {
  const labels = [...new Set(document.demonstrations.flatMap((d) => (d.label === undefined ? [] : [d.label])))];
  return poolTarget(ctx, document.prompt, document.instruction, labels);
}

function baseline(ctx: TargetContext, shots: number): { groups: AuditGroup[]; design: string } {
  const template = templateFor(ctx.data.dataset, { maxExampleChars: 400 } as Parameters<typeof templateFor>[1]);
  const prompts = baselineDesign(ctx.data.privateRecords, shots, ctx.members, ctx.balance, ctx.random);
  const groups = prompts.map((p) => ({
    // Records are cut to maxExampleChars as in teacher prompts (a long e-mail would not fit a small context).
    target: promptTarget(ctx.model, template, renderFewShotPrompt(template, p.demonstrations.map((d) => ({ text: d.text.slice(0, template.maxExampleChars), label: d.label ?? undefined })))),
    candidates: p.candidates,
  }));
  return { groups, design: `${prompts.length} prompts of ${shots} private records; members: their demonstrations; non-members: other private records (${ratio(ctx.balance)})` };
}

function broughtPrompt(ctx: TargetContext, text: string): { groups: AuditGroup[]; design: string } {
  const flat = oneLine(text);
  const inside = ctx.data.privateRecords.filter((r) => oneLine(r.text).length >= 20 && flat.includes(oneLine(r.text)));
  if (inside.length === 0) return poolTarget(ctx, text, '', ctx.data.dataset.labels);
  const outside = ctx.data.privateRecords.filter((r) => !inside.includes(r));
  const members = poolDesign(inside, outside, ctx.members, ctx.balance, ctx.random);
  const target = promptTarget(ctx.model, defaultTemplate(''), text);
  return { groups: [{ target, candidates: members }], design: `members: the ${inside.length} private records the prompt contains; non-members: other private records (${ratio(ctx.balance)})` };
}

export async function resolveTarget(spec: AuditTargetSpec, ctx: TargetContext): Promise<ResolvedTarget> {
  const name = targetName(spec);
  if (spec.kind === 'baseline') return { kind: spec.kind, name, accountedEpsilon: null, delta: null, runId: null, ...baseline(ctx, spec.shots) };
  if (spec.kind === 'answering') return answeringAuditTarget(spec, ctx, name);
  if (spec.kind === 'prompt') return { kind: spec.kind, name, accountedEpsilon: null, delta: null, runId: null, ...broughtPrompt(ctx, spec.text) };
  const document = spec.kind === 'run' ? await runDocument(ctx, spec.runId) : parseDocument(spec.document);
  if (document.certificate.dataset.name !== ctx.data.dataset.name) {
    throw new RefusalError(`${name} was made from dataset "${document.certificate.dataset.name}", not "${ctx.data.dataset.name}": audit it on its own dataset`);
  }
  return {
    kind: spec.kind,
    name,
    accountedEpsilon: document.certificate.epsilon.upper,
    delta: document.certificate.delta,
    runId: spec.kind === 'run' ? spec.runId : null,
    ...documentTarget(ctx, document),
  };
}

async function runDocument(ctx: TargetContext, runId: number): Promise<DpPromptExport> {
  const run = await ctx.synthesis.get(runId).catch(() => {
    throw new RefusalError(`no synthesis run ${runId}`);
  });
  if (!run.document) throw new RefusalError(`synthesis run ${runId} has no released prompt (status: ${run.status})`);
  return run.document;
}

function parseDocument(text: string): DpPromptExport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RefusalError('the DP prompt file is not JSON (a veil.dp-prompt/v1 export is expected)');
  }
  const parsed = dpPromptSchema.safeParse(json);
  if (!parsed.success) throw new RefusalError('the file is not a veil.dp-prompt/v1 document');
  return parsed.data;
}

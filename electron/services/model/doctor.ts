/**
 * `veil doctor`: checks the installation end to end — SQLite opens (and migrates) the data
 * directory's own database, the CSPRNG works, llama.cpp loads a freshly generated tiny
 * GGUF in the model host process and evaluates a prompt, and the reference learner answers
 * a few-shot prompt. Each check reports ok, a one-line detail and its duration; a failing
 * check never stops the others. The checks run concurrently: llama.cpp's (a process to
 * start, the native library to test and load) is the longest, and the others finish inside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTinyLlamaGguf } from '../../../core/model/gguf/tinyLlama';
import type { HostDistribution, LoadedModel } from '../../workers/modelHostProtocol';
import { DATABASE_FILE, openAppDatabase } from '../db/appDatabase';
import { readGgufMetadata } from './ggufFile';
import { ModelHostClient } from './modelHostClient';
import { defaultThreads } from './modelService';
import { loadReferenceLearner } from './referenceResources';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  seconds: number;
}

async function checkSqlite(dataDir: string): Promise<string> {
  const file = join(dataDir, DATABASE_FILE);
  const db = await openAppDatabase(file);
  try {
    const version = await db.get<{ v: string }>('SELECT sqlite_version() AS v');
    const migrations = await db.get<{ n: number }>('SELECT count(*) AS n FROM schema_migrations');
    const [check] = await db.all<{ quick_check: string }>('PRAGMA quick_check');
    if (check?.quick_check !== 'ok') throw new Error(`${file} failed its integrity check: ${check?.quick_check}`);
    return `SQLite ${version?.v} opened ${file} (${migrations?.n ?? 0} migrations applied, quick_check ok)`;
  } finally {
    await db.close();
  }
}

async function checkCsprng(): Promise<string> {
  const a = globalThis.crypto.getRandomValues(new Uint32Array(8));
  const b = globalThis.crypto.getRandomValues(new Uint32Array(8));
  if (a.every((x, i) => x === b[i])) throw new Error('two CSPRNG draws were identical');
  return 'globalThis.crypto.getRandomValues works';
}

async function checkLlama(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'veil-doctor-'));
  const host = new ModelHostClient();
  try {
    const path = join(dir, 'tiny.gguf');
    const starting = host.start(); // the process starts while the model file is written
    writeFileSync(path, makeTinyLlamaGguf({ seed: 42 }));
    const metadata = await readGgufMetadata(path);
    await starting;
    const started = performance.now();
    const threads = defaultThreads();
    const loaded = await host.request<LoadedModel>({ op: 'load', path, threads, sequences: 2, contextSize: 256, vocabularySize: metadata.vocabularySize! });
    const loadMs = performance.now() - started;
    const [dist] = await host.request<HostDistribution[]>({ op: 'distributions', prompts: ['the quick brown fox'] });
    const sum = dist.probs.reduce((a, b) => a + b, 0);
    if (dist.probs.length !== loaded.vocabularySize || Math.abs(sum - 1) > 1e-6) throw new Error(`next-token distribution sums to ${sum} over ${dist.probs.length} tokens`);
    return `loaded a generated tiny GGUF in ${loadMs.toFixed(0)} ms (model host, ${threads} thread${threads === 1 ? '' : 's'}); next-token distribution over ${dist.probs.length} tokens sums to ${sum.toFixed(6)}`;
  } finally {
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function checkReference(): Promise<string> {
  const learner = await loadReferenceLearner();
  const prompt =
    'Classify each e-mail as spam or ham.\n\n' +
    'Email: Win a free cruise! Click here to claim your cash prize now\nLabel: spam\n\n' +
    'Email: Minutes of the build meeting, patch review moved to Thursday\nLabel: ham\n\n' +
    'Email: Cheap meds, free prize, click now to claim cash\nLabel: spam\n\n' +
    'Email: Can you review my patch before the meeting on Thursday?\nLabel: ham\n\n' +
    'Email: Claim your free cash prize, click here\nLabel:';
  const [spam, ham] = await learner.scoreLabels(prompt, [' spam', ' ham']);
  if (!(spam > ham)) throw new Error('the reference learner did not follow its demonstrations');
  return `vocabulary ${learner.info.vocabularySize}; answered "spam" to a 4-shot prompt (p = ${Math.exp(spam).toFixed(3)})`;
}

const CHECKS: [string, (dataDir: string) => Promise<string>][] = [
  ['sqlite', checkSqlite],
  ['csprng', checkCsprng],
  ['llama.cpp', checkLlama],
  ['reference learner', checkReference],
];

/** Run every check against the data directory `dataDir` (which must exist). */
export async function runDoctor(dataDir: string): Promise<{ ok: boolean; checks: DoctorCheck[] }> {
  const checks = await Promise.all(CHECKS.map(([name, check]) => timed(name, () => check(dataDir))));
  return { ok: checks.every((c) => c.ok), checks };
}

async function timed(name: string, check: () => Promise<string>): Promise<DoctorCheck> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const detail = await check();
    return { name, ok: true, detail, seconds: seconds() };
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error), seconds: seconds() };
  }
}

/**
 * `veil model …`: inspect a GGUF (`info`), try a prompt on any backend (`try`), and write
 * the tiny test GGUF (`make-tiny`). `try` runs through the same model service and jobs as
 * the app. API keys come from an environment variable, never from the command line.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { isTinyWeightType, makeTinyLlamaGguf } from '../../../core/model/gguf/tinyLlama';
import { callMethod } from '../../services/api';
import { ServiceContext } from '../../services/context';
import { defaultDataDir, ensureDataDir } from '../../services/dataDir';
import { inspectGgufFile, sha256File } from '../../services/model/ggufFile';
import { OpenAiClient } from '../../services/model/openai/openaiClient';
import type { TryResult } from '../../shared/api/model';
import { outputFile, writeOutput } from '../files';
import { CliError, numberOption, printResult } from '../output';

function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}

async function firstRemoteModel(baseUrl: string, apiKey: string | undefined): Promise<string> {
  const list = await new OpenAiClient({ baseUrl, model: '', apiKey }).get<{ data?: { id: string }[] }>('/models');
  const id = list.data?.[0]?.id;
  if (!id) throw new CliError('the server lists no models; pass --remote-model', 2);
  return id;
}

interface TryOptions {
  model: string;
  prompt: string;
  maxTokens?: string;
  top?: string;
  remoteModel?: string;
  maxLogprobs?: string;
  apiKeyEnv: string;
  threads?: string;
  dataDir: string;
  json?: boolean;
}

async function tryPrompt(opts: TryOptions): Promise<TryResult> {
  const ctx = new ServiceContext(ensureDataDir(opts.dataDir), 'cli');
  try {
    if (/^https?:\/\//i.test(opts.model)) {
      const apiKey = process.env[opts.apiKeyEnv] || undefined;
      const model = opts.remoteModel ?? (await firstRemoteModel(opts.model, apiKey));
      await callMethod(ctx, 'model.useRemote', { baseUrl: opts.model, model, apiKey, maxLogprobs: numberOption('--max-logprobs', opts.maxLogprobs) });
    } else if (opts.model !== 'reference') {
      const threads = numberOption('--threads', opts.threads);
      const { jobId } = await callMethod(ctx, 'model.loadGguf', { path: resolve(opts.model), threads, sequences: 1 });
      const job = await ctx.jobs.wait(jobId);
      if (job.status !== 'succeeded') throw new CliError(`could not load ${opts.model}: ${job.error ?? job.status}`);
    }
    return await callMethod(ctx, 'model.try', {
      prompt: opts.prompt,
      maxTokens: numberOption('--max-tokens', opts.maxTokens),
      topK: numberOption('--top', opts.top),
    });
  } finally {
    await ctx.close();
  }
}

export function registerModel(program: Command): void {
  const model = program.command('model').description('language model backends: inspect GGUF files, try prompts, make the tiny test model');

  model
    .command('info')
    .description('validate a GGUF file and show its metadata and SHA-256 (without loading it)')
    .argument('<file>', 'a .gguf file')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const info = await inspectGgufFile(resolve(file));
      const m = info.metadata;
      printResult(opts.json, info, () =>
        [
          `${info.fileName}  (${formatBytes(m.fileSize)}, GGUF v${m.ggufVersion})`,
          `architecture:   ${m.architecture}${m.name ? ` — ${m.name}` : ''}`,
          `parameters:     ${m.parameterCount.toLocaleString('en-US')}`,
          `quantisation:   ${m.quantisation}`,
          `context length: ${m.contextLength ?? 'unknown'}`,
          `vocabulary:     ${m.vocabularySize ?? 'unknown'} (${m.tokenizerModel ?? 'no tokenizer'})`,
          `chat template:  ${m.chatTemplate ? `${m.chatTemplate.length} characters` : 'none'}`,
          `sha256:         ${info.sha256}`,
        ].join('\n'),
      );
    });

  model
    .command('try')
    .description('generate from a prompt and show the top next tokens with probabilities')
    .requiredOption('--model <model>', '"reference", a .gguf file, or an OpenAI-compatible server URL (http://host:port/v1)')
    .requiredOption('--prompt <text>', 'the prompt')
    .option('--max-tokens <n>', 'tokens to generate (default 32)')
    .option('--top <k>', 'how many top next tokens to show (default 10)')
    .option('--remote-model <name>', 'model name on the server (default: the first it lists)')
    .option('--max-logprobs <n>', 'most logprobs to ask a server for (default 20; lowered to what the server allows)')
    .option('--api-key-env <var>', 'environment variable holding the server API key', 'VEIL_API_KEY')
    .option('--threads <n>', 'llama.cpp threads (default: half the cores)')
    .option('--data-dir <dir>', 'data directory', defaultDataDir())
    .option('--json', 'print JSON')
    .action(async (opts: TryOptions) => {
      const result = await tryPrompt(opts);
      printResult(opts.json, result, () =>
        [
          `${result.backend}: ${result.model}`,
          `generated (${result.finishReason}): ${JSON.stringify(result.text)}`,
          'top next tokens:',
          ...result.topTokens.map((t) => `  ${t.prob.toFixed(4)}  ${JSON.stringify(t.text)} (${t.token})`),
        ].join('\n'),
      );
    });

  model
    .command('make-tiny')
    .description('write a tiny llama-architecture GGUF (byte-fallback vocabulary, seeded random weights) for tests and the doctor')
    .argument('<file>', 'output path (.gguf)')
    .option('--seed <n>', 'weight seed (default 1)')
    .option('--layers <n>', 'transformer blocks (default 2)')
    .option('--embedding <n>', 'embedding length (default 64)')
    .option('--feed-forward <n>', 'feed-forward length (default 128)')
    .option('--weights <type>', 'weight matrix type: F32, F16 or Q8_0 (default F32)')
    .option('--overwrite', 'replace an existing file')
    .addOption(new Option('--force', 'deprecated: --overwrite').hideHelp())
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { seed?: string; layers?: string; embedding?: string; feedForward?: string; weights?: string; overwrite?: boolean; force?: boolean; json?: boolean }) => {
      if (!resolve(file).toLowerCase().endsWith('.gguf')) throw new CliError('the output file must end in .gguf', 2);
      if (opts.force) process.stderr.write('veil: warning: --force is deprecated: use --overwrite\n');
      // The CLI's one rule for files it writes (electron/cli/files.ts), with the file as the argument.
      const out = outputFile(file, { flag: 'the output file', overwrite: opts.overwrite || opts.force });
      const path = out.path;
      const weights = (opts.weights ?? 'F32').toUpperCase();
      if (!isTinyWeightType(weights)) throw new CliError(`--weights must be F32, F16 or Q8_0, got "${opts.weights}"`, 2);
      const bytes = makeTinyLlamaGguf({
        seed: numberOption('--seed', opts.seed),
        blockCount: numberOption('--layers', opts.layers),
        embeddingLength: numberOption('--embedding', opts.embedding),
        feedForwardLength: numberOption('--feed-forward', opts.feedForward),
        weights,
      });
      writeOutput(out, bytes);
      const result = { path, bytes: bytes.length, sha256: await sha256File(path) };
      printResult(opts.json, result, () => `wrote ${path} (${formatBytes(bytes.length)}, sha256 ${result.sha256})`);
    });
}

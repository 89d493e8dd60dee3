/** The loaded GGUF: its metadata (as validated from the file header), its SHA-256, and the hardware it runs on. */
import { Typography } from '@mui/material';
import type { ModelStatus } from '../../../../electron/shared/api/model';
import { CollapsibleText } from '../../components/CollapsibleText';
import { formatBytes, formatCount } from '../../components/format';
import { KeyValueTable, type KeyValueRow } from '../../components/KeyValueTable';
import { Section } from '../../components/Section';

type LoadedGguf = NonNullable<ModelStatus['gguf']>;
type Hardware = NonNullable<ModelStatus['hardware']>;

const mono = { fontFamily: 'monospace' } as const;

function metadataRows(gguf: LoadedGguf): KeyValueRow[] {
  const m = gguf.metadata;
  return [
    ['File', <span title={gguf.path}>{gguf.fileName}</span>],
    ['Architecture', m.architecture],
    ['Name', m.name ?? 'not set'],
    ['Parameters', formatCount(m.parameterCount)],
    ['Quantisation', m.quantisation],
    ['Context length', `${formatCount(m.contextLength)} (trained); ${formatCount(gguf.contextSize)} per sequence in use`],
    ['Parallel sequences', String(gguf.sequences)],
    ['Vocabulary size', formatCount(m.vocabularySize)],
    ['Tokenizer', m.tokenizerModel ?? 'none'],
    ['Embedding length', formatCount(m.embeddingLength)],
    ['Blocks', formatCount(m.blockCount)],
    ['File size', `${formatBytes(m.fileSize)} (GGUF v${m.ggufVersion}, ${formatCount(m.tensorCount)} tensors)`],
    ['SHA-256', <span style={mono}>{gguf.sha256}</span>],
    ['Load time', `${gguf.loadSeconds.toFixed(2)} s`],
  ];
}

function hardwareRows(hardware: Hardware): KeyValueRow[] {
  return [
    ['Compute backend', hardware.backend],
    ['Threads', `${hardware.threads} (of ${hardware.cpuMathCores} cores llama.cpp sees)`],
    ['Model memory', formatBytes(hardware.modelBytes)],
    ['Context memory', formatBytes(hardware.contextBytes)],
    ['Model host process memory', formatBytes(hardware.rssBytes)],
    ['System memory', formatBytes(hardware.totalMemoryBytes)],
  ];
}

export function GgufDetails({ gguf, hardware }: { gguf: LoadedGguf; hardware: Hardware | null }) {
  return (
    <Section title="Loaded GGUF model">
      <KeyValueTable label="GGUF metadata" rows={metadataRows(gguf)} />
      {gguf.metadata.chatTemplate ? (
        <CollapsibleText title="Chat template" text={gguf.metadata.chatTemplate} />
      ) : (
        <Typography variant="body2">No chat template in this file.</Typography>
      )}
      <Typography variant="subtitle1" component="h3">
        Hardware
      </Typography>
      {hardware ? (
        <>
          <KeyValueTable label="Hardware" rows={hardwareRows(hardware)} />
          <CollapsibleText title="llama.cpp system info" text={hardware.systemInfo} />
        </>
      ) : (
        <Typography variant="body2">The model host has not reported its hardware.</Typography>
      )}
    </Section>
  );
}

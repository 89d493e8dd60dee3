/** The loaded GGUF: its metadata (as validated from the file header) and its SHA-256 (hardware: HardwareCard). */
import { Typography } from '@mui/material';
import type { ModelStatus } from '../../../../electron/shared/api/model';
import { CollapsibleText } from '../../components/CollapsibleText';
import { formatBytes, formatCount } from '../../components/format';
import { KeyValueTable, type KeyValueRow } from '../../components/KeyValueTable';
import { Section } from '../../components/Section';

type LoadedGguf = NonNullable<ModelStatus['gguf']>;

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

export function GgufDetails({ gguf }: { gguf: LoadedGguf }) {
  return (
    <Section title="Loaded GGUF model">
      <KeyValueTable label="GGUF metadata" rows={metadataRows(gguf)} />
      {gguf.metadata.chatTemplate ? (
        <CollapsibleText title="Chat template" text={gguf.metadata.chatTemplate} />
      ) : (
        <Typography variant="body2">No chat template in this file.</Typography>
      )}
    </Section>
  );
}

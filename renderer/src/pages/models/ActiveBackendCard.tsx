/**
 * The backend that answers every query now — the reference learner is labelled as a
 * baseline statistical learner, not an LLM — with its capabilities, the model host
 * process, and the buttons to return to the reference learner or unload.
 */
import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import type { ModelStatus } from '../../../../electron/shared/api/model';
import type { VeilApi } from '../../../../electron/shared/contract';
import { formatCount } from '../../components/format';
import { KeyValueTable, type KeyValueRow } from '../../components/KeyValueTable';
import { Section } from '../../components/Section';
import { useAsyncAction } from '../../components/useAsyncAction';

const BACKEND_LABELS: Record<ModelStatus['active']['backend'], string> = {
  reference: 'Built-in reference learner',
  'llama.cpp': 'llama.cpp (local GGUF)',
  'openai-compatible': 'OpenAI-compatible server',
};

const CAPABILITY_LABELS: Record<Exclude<keyof ModelStatus['active']['capabilities'], 'maxTopTokens'>, string> = {
  tokenize: 'tokenize',
  fullDistribution: 'full next-token distribution',
  restrictedDistribution: 'restricted distribution',
  batchedEvaluation: 'batched evaluation',
  generate: 'generation',
  scoreLabels: 'label scoring',
  embeddings: 'embeddings',
};

function describeHost(host: ModelStatus['host']): string {
  const state = host.running ? `running (pid ${host.pid})` : 'not running';
  return host.restarts > 0 ? `${state}; restarted ${host.restarts}×` : state;
}

export function ActiveBackendCard({ api, status, onChanged }: { api: VeilApi; status: ModelStatus; onChanged: () => void }) {
  const { busy, error, run } = useAsyncAction();
  const { active, remote, host } = status;
  const baseline = active.kind === 'baseline';
  const capabilities = Object.entries(CAPABILITY_LABELS) as [keyof typeof CAPABILITY_LABELS, string][];
  const switchTo = (action: () => Promise<ModelStatus>) => run(action).then((next) => next && onChanged());

  const rows: KeyValueRow[] = [
    ['Backend', BACKEND_LABELS[active.backend]],
    ['Vocabulary size', formatCount(active.vocabularySize)],
    ['Context length', formatCount(active.contextLength)],
    ['Embedding dimension', formatCount(active.embeddingDimension)],
    ['Top tokens per query', active.capabilities.maxTopTokens === null ? 'no limit' : String(active.capabilities.maxTopTokens)],
    ...(remote
      ? ([
          ['Server', remote.baseUrl],
          ['Server model', remote.model],
          ['API key', remote.hasApiKey ? 'set (kept in memory only)' : 'none'],
          ['Max logprobs', String(remote.maxLogprobs)],
        ] as const)
      : []),
    ['Model host process', describeHost(host)],
  ];

  return (
    <Section title="Active backend">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="p">
          {active.name}
        </Typography>
        <Chip color={baseline ? 'warning' : 'success'} label={baseline ? 'Baseline statistical learner, not an LLM' : 'LLM'} />
      </Box>
      {baseline && (
        <Alert severity="info">
          The built-in reference learner (n-gram background model, cache of the prompt, naive Bayes label scoring) lets Veil work offline
          with no model file. It is a baseline statistical learner, not an LLM: load a GGUF or connect a server for language-model quality.
        </Alert>
      )}
      <KeyValueTable label="Active backend details" rows={rows} />
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          Capabilities
        </Typography>
        <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
          {capabilities.map(([key, label]) => (
            <Chip key={key} size="small" variant={active.capabilities[key] ? 'filled' : 'outlined'} label={`${label}: ${active.capabilities[key] ? 'yes' : 'no'}`} />
          ))}
        </Stack>
      </Box>
      {host.lastCrash && (
        <Alert severity="warning">
          The model host process crashed at {new Date(host.lastCrash.at).toLocaleString()}: {host.lastCrash.message}
        </Alert>
      )}
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction="row" spacing={1}>
        <Button variant="contained" disabled={busy || active.backend === 'reference'} onClick={() => switchTo(() => api['model.useReference']({}))}>
          Use reference learner
        </Button>
        <Button variant="outlined" disabled={busy || (active.backend === 'reference' && !host.running)} onClick={() => switchTo(() => api['model.unload']({}))}>
          Unload
        </Button>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Unload frees the model and stops the model host process; both buttons return to the reference learner.
      </Typography>
    </Section>
  );
}

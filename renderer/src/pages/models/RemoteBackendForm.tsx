/**
 * Connect an OpenAI-compatible server (vLLM, llama.cpp server). The API key field is a
 * password field, cleared after connecting; the services keep the key in memory only and
 * never send it back (status says only whether one is set).
 */
import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import type { VeilApi } from '../../../../electron/shared/contract';
import { parseOptionalInteger } from '../../components/format';
import { Section } from '../../components/Section';
import { useAsyncAction } from '../../components/useAsyncAction';

export function RemoteBackendForm({ api, onConnected }: { api: VeilApi; onConnected: () => void }) {
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [maxLogprobs, setMaxLogprobs] = useState('');
  const [showMissing, setShowMissing] = useState(false);
  const { busy, error, run } = useAsyncAction();
  const parsedLogprobs = parseOptionalInteger(maxLogprobs, 1, 1000);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShowMissing(true);
    if (!baseUrl.trim() || !model.trim() || !parsedLogprobs.ok) return;
    const status = await run(() =>
      api['model.useRemote']({ baseUrl: baseUrl.trim(), model: model.trim(), apiKey: apiKey || undefined, maxLogprobs: parsedLogprobs.value }),
    );
    if (!status) return;
    setApiKey('');
    setShowMissing(false);
    onConnected();
  };

  const missing = (value: string) => showMissing && value.trim() === '';

  return (
    <Section title="OpenAI-compatible server">
      <Typography variant="body2" color="text.secondary">
        Scale out to an inference server (vLLM, llama.cpp server) through /v1/completions with logprobs and /v1/embeddings.
      </Typography>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { md: '2fr 1fr' } }}>
        <TextField
          label="Server base URL"
          placeholder="http://127.0.0.1:8000/v1"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          required
          error={missing(baseUrl)}
          helperText={missing(baseUrl) ? 'Enter the server URL' : undefined}
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
        <TextField
          label="Model name"
          value={model}
          onChange={(e) => setModel(e.target.value)}
          required
          error={missing(model)}
          helperText={missing(model) ? 'Enter the model name the server serves' : undefined}
        />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          helperText="Optional; kept in memory only, never stored or shown"
        />
        <TextField
          label="Max logprobs"
          value={maxLogprobs}
          onChange={(e) => setMaxLogprobs(e.target.value)}
          error={!parsedLogprobs.ok}
          helperText={parsedLogprobs.ok ? 'Most to ask for (default 20); lowered to what the server allows' : parsedLogprobs.error}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            Connect
          </Button>
        </Box>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
    </Section>
  );
}

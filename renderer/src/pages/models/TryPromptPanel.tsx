/**
 * Try a prompt on the active backend: generated text and the top next tokens with their
 * probabilities. Enter submits, Shift+Enter adds a line. The prompt is never logged.
 */
import { Alert, Box, Button, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { TryResult } from '../../../../electron/shared/api/model';
import type { VeilApi } from '../../../../electron/shared/contract';
import { parseOptionalInteger } from '../../components/format';
import { Section } from '../../components/Section';
import { useAsyncAction } from '../../components/useAsyncAction';

const TOP_K = 10;

function submitOnEnter(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
  event.preventDefault();
  (event.target as HTMLTextAreaElement).form?.requestSubmit();
}

function TryResultView({ result }: { result: TryResult }) {
  return (
    <Box aria-live="polite">
      <Typography variant="caption" color="text.secondary">
        {result.backend} · {result.model} · {result.seconds.toFixed(2)} s · stopped: {result.finishReason}
      </Typography>
      <Typography variant="subtitle2" component="h3">
        Generated text
      </Typography>
      <Box component="pre" data-testid="generated-text" sx={{ m: 0, mb: 2, p: 1, bgcolor: 'action.hover', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {result.text || '(nothing generated)'}
      </Box>
      <Table size="small" aria-label="Top next tokens">
        <TableHead>
          <TableRow>
            <TableCell>Next token</TableCell>
            <TableCell align="right">Token id</TableCell>
            <TableCell align="right">Probability</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {result.topTokens.map((t) => (
            <TableRow key={t.token}>
              <TableCell sx={{ fontFamily: 'monospace' }}>{JSON.stringify(t.text)}</TableCell>
              <TableCell align="right">{t.token}</TableCell>
              <TableCell align="right">{t.prob.toFixed(4)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

export function TryPromptPanel({ api }: { api: VeilApi }) {
  const [prompt, setPrompt] = useState('');
  const [maxTokens, setMaxTokens] = useState('32');
  const [result, setResult] = useState<TryResult | null>(null);
  const [promptMissing, setPromptMissing] = useState(false);
  const { busy, error, run } = useAsyncAction();
  const parsedMaxTokens = parseOptionalInteger(maxTokens, 0, 512);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPromptMissing(prompt === '');
    if (prompt === '' || !parsedMaxTokens.ok || busy) return;
    const next = await run(() => api['model.try']({ prompt, maxTokens: parsedMaxTokens.value, topK: TOP_K }));
    if (next) setResult(next);
  };

  return (
    <Section title="Try a prompt">
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          label="Prompt"
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          onKeyDown={submitOnEnter}
          multiline
          minRows={2}
          required
          error={promptMissing}
          helperText={promptMissing ? 'Enter a prompt' : 'Enter runs it, Shift+Enter adds a line'}
          sx={{ flex: 1, minWidth: 320 }}
        />
        <TextField
          label="Max tokens"
          value={maxTokens}
          onChange={(e) => setMaxTokens(e.target.value)}
          error={!parsedMaxTokens.ok}
          helperText={parsedMaxTokens.ok ? '0 shows only the next tokens' : parsedMaxTokens.error}
          sx={{ width: 150 }}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 1 }}>
          {busy ? 'Running…' : 'Run'}
        </Button>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      {result && <TryResultView result={result} />}
    </Section>
  );
}

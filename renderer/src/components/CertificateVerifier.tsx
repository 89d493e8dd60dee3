/** Verify an exported DP prompt: paste it or pick the file; every check is listed. */
import { Alert, Box, Button, List, ListItem, ListItemText, Stack, TextField } from '@mui/material';
import { useState, type ChangeEvent } from 'react';
import type { MethodOutput, VeilApi } from '../../../electron/shared/contract';
import { Section } from './Section';
import { useAsyncAction } from './useAsyncAction';

export function CertificateVerifier({ api, label = 'Exported veil.dp-prompt/v1 JSON' }: { api: VeilApi; label?: string }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<MethodOutput<'certificate.verify'> | null>(null);
  const { busy, error, run } = useAsyncAction();
  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  };
  const verify = async () => setResult((await run(() => api['certificate.verify']({ document: text }))) ?? null);
  return (
    <Section title="Verify a certificate">
      <TextField label={label} value={text} onChange={(e) => setText(e.target.value)} multiline minRows={3} maxRows={10} />
      <Stack direction="row" spacing={1}>
        <Button component="label" variant="outlined">
          Open file…
          <Box component="input" type="file" accept=".json,application/json" hidden onChange={(e) => void pick(e as ChangeEvent<HTMLInputElement>)} />
        </Button>
        <Button variant="contained" disabled={busy || text.trim().length < 2} onClick={() => void verify()}>
          Verify
        </Button>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {result && (
        <>
          <Alert severity={result.valid ? 'success' : 'error'}>{result.valid ? 'The certificate is valid.' : 'The certificate does NOT verify.'}</Alert>
          <List dense aria-label="certificate checks">
            {result.checks.map((c) => (
              <ListItem key={c.name}>
                <ListItemText primary={`${c.ok ? '✓' : '✗'} ${c.name}`} secondary={c.detail} />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </Section>
  );
}

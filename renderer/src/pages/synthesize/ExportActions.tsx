/**
 * One-click exports of a released prompt: for each format, save it as a file or copy it to
 * the clipboard. Where the clipboard is denied (a permission policy, an insecure context),
 * a message says so and points to saving the file instead.
 */
import { Alert, Button, ButtonGroup, Stack } from '@mui/material';
import { useState } from 'react';
import type { MethodInput, VeilApi } from '../../../../electron/shared/contract';
import { useAsyncAction } from '../../components/useAsyncAction';
import { copyText } from '../../components/clipboard';
import { downloadText } from '../../components/download';

type Format = MethodInput<'synth.export'>['format'];

const formats: readonly [Format, string][] = [
  ['json', 'JSON (veil.dp-prompt/v1)'],
  ['markdown', 'Markdown'],
  ['chat', 'chat messages'],
  ['text', 'prompt text'],
];

export function ExportActions({ api, runId }: { api: VeilApi; runId: number }) {
  const { busy, error, run } = useAsyncAction();
  const [copied, setCopied] = useState<{ ok: boolean; message: string } | null>(null);
  const save = async (format: Format) => {
    const file = await run(() => api['synth.export']({ id: runId, format }));
    if (file) downloadText(file.fileName, file.mediaType, file.content);
  };
  const copy = async (format: Format, label: string) => {
    const file = await run(() => api['synth.export']({ id: runId, format }));
    if (!file) return;
    setCopied(
      (await copyText(file.content))
        ? { ok: true, message: `Copied the ${label} to the clipboard.` }
        : { ok: false, message: `The clipboard is not available here (permission denied): use “Export ${label}” to save it as a file.` },
    );
  };
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {formats.map(([format, label]) => (
          <ButtonGroup key={format} variant="outlined" disabled={busy}>
            <Button onClick={() => void save(format)}>Export {label}</Button>
            <Button aria-label={`Copy ${label}`} onClick={() => void copy(format, label)}>
              Copy
            </Button>
          </ButtonGroup>
        ))}
      </Stack>
      {copied && (
        <Alert severity={copied.ok ? 'success' : 'warning'} role="status">
          {copied.message}
        </Alert>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}

/**
 * A run's exported veil.augmentation/v1 document (the certificate with the examples it hashes):
 * download it or copy it (`veil certificate verify` checks it), and the examples written, as
 * certified. Where the service has no document for the run, its reason is shown.
 */
import { Alert, Button, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useState } from 'react';
import { augmentationDocumentSchema } from '../../../../core/export/augmentationFormat';
import type { VeilApi } from '../../../../electron/shared/contract';
import { copyText } from '../../components/clipboard';
import { downloadText } from '../../components/download';
import { RetryAlert } from '../../components/RetryAlert';
import { useApiQuery } from '../../components/useApiQuery';

export function AugmentationDocumentView({ api, runId }: { api: VeilApi; runId: number }) {
  const file = useApiQuery(() => api['augment.export']({ id: runId }), [api], runId);
  const [copied, setCopied] = useState<boolean | null>(null);
  if (file.error) return <RetryAlert what="read the certificate" error={file.error} onRetry={file.reload} />;
  if (!file.data) return null;
  const { fileName, mediaType, content } = file.data;
  const examples = augmentationDocumentSchema.safeParse(JSON.parse(content)).data?.examples ?? [];
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={() => downloadText(fileName, mediaType, content)}>
          Download certificate (veil.augmentation/v1 JSON)
        </Button>
        <Button variant="outlined" onClick={() => void copyText(content).then(setCopied)}>
          Copy certificate JSON
        </Button>
      </Stack>
      {copied !== null && (
        <Alert severity={copied ? 'success' : 'warning'} role="status">
          {copied ? 'Copied the certificate to the clipboard.' : 'The clipboard is not available here (permission denied): download the certificate instead.'}
        </Alert>
      )}
      <Table size="small" aria-label="examples written">
        <TableHead>
          <TableRow>
            <TableCell>Generated example (public split, tagged generated)</TableCell>
            <TableCell>Answer</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {examples.map((e, i) => (
            <TableRow key={i}>
              <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{e.text}</TableCell>
              <TableCell>{e.label ?? e.output ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Stack>
  );
}

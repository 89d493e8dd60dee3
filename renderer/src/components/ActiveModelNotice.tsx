/** Names the model a job would generate with; for the reference learner, says it is a baseline and links to the Models page. */
import { Alert, Link } from '@mui/material';
import type { VeilApi } from '../../../electron/shared/contract';
import { modelNotice, REFERENCE_BASELINE } from '../../../electron/shared/modelNotice';
import { useApiQuery } from './useApiQuery';

export function ActiveModelNotice({ api }: { api: VeilApi }) {
  const status = useApiQuery(() => api['model.status']({}), [api]);
  if (!status.data) return null;
  const notice = modelNotice(status.data.active);
  return (
    <Alert severity={notice.baseline ? 'warning' : 'info'} data-testid="active-model">
      Model: <strong>{notice.model}</strong>
      {notice.baseline ? (
        <>
          {' '}— {REFERENCE_BASELINE}{' '}
          <Link href="#/models">Load a GGUF on the Models page</Link> for real demonstrations.
        </>
      ) : (
        ` (${status.data.active.backend}).`
      )}
    </Alert>
  );
}

/** An error alert for something the page failed to read, with a Retry button; renders nothing without an error. */
import { Alert, Button } from '@mui/material';

export function RetryAlert({ what, error, onRetry }: { what: string; error: Error | string | null | undefined; onRetry: () => void }) {
  if (!error) return null;
  return (
    <Alert severity="error" action={<Button onClick={onRetry}>Retry</Button>}>
      Could not {what}: {typeof error === 'string' ? error : error.message}
    </Alert>
  );
}

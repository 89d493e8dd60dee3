/**
 * Confirmation for a hard delete (records or a whole dataset): says it cannot be undone and
 * offers to compact the vault file so the deleted text does not linger in free pages or the
 * WAL. Errors show inside the dialog, which stays open.
 */
import { Alert, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel } from '@mui/material';
import { useId, useState, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  busy: boolean;
  error: string | null;
  onConfirm: (compact: boolean) => void;
  onClose: () => void;
}

export function ConfirmDeleteDialog({ open, title, children, busy, error, onConfirm, onClose }: Props) {
  const [compact, setCompact] = useState(true);
  const titleId = useId();
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{children}</DialogContentText>
        <DialogContentText sx={{ mt: 1, fontWeight: 500 }}>This is a hard delete and cannot be undone.</DialogContentText>
        <FormControlLabel
          sx={{ mt: 1 }}
          control={<Checkbox checked={compact} onChange={(e) => setCompact(e.target.checked)} />}
          label="Compact the vault file afterwards, so the deleted text does not linger on disk"
        />
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={() => onConfirm(compact)} disabled={busy}>
          Delete permanently
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A page's frame: its one top-level heading (with the page's actions beside it, if any) and its sections, stacked. */
import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface Props {
  title: string;
  /** The page's width at the most, in pixels; 'none' for the full width. */
  maxWidth?: number | 'none';
  /** Buttons beside the heading, on its right. */
  actions?: ReactNode;
  /** The page is still reading what it shows (aria-busy). */
  busy?: boolean;
  children: ReactNode;
}

export function PageFrame({ title, maxWidth = 1100, actions, busy = false, children }: Props) {
  const heading = (
    <Typography variant="h5" component="h1" sx={actions ? { flex: 1 } : undefined}>
      {title}
    </Typography>
  );
  return (
    <Stack spacing={2} sx={{ p: 3, maxWidth }} aria-busy={busy || undefined}>
      {actions ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {heading}
          {actions}
        </Stack>
      ) : (
        heading
      )}
      {children}
    </Stack>
  );
}

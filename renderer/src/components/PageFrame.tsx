/** A page's frame: its one top-level heading and its sections, stacked. */
import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export function PageFrame({ title, maxWidth = 1100, children }: { title: string; maxWidth?: number; children: ReactNode }) {
  return (
    <Stack spacing={2} sx={{ p: 3, maxWidth }}>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

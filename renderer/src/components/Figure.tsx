/**
 * A chart as a named figure: the title is its caption (and its accessible name), an optional
 * text description is read by screen readers and shown under the chart.
 */
import { Box, Typography, type SxProps, type Theme } from '@mui/material';
import { useId, type ReactNode } from 'react';

interface Props {
  title: string;
  description?: string;
  children: ReactNode;
  sx?: SxProps<Theme>;
}

export function Figure({ title, description, children, sx }: Props) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Box component="figure" role="figure" aria-labelledby={titleId} aria-describedby={description ? descriptionId : undefined} sx={[{ m: 0, minWidth: 0 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <Typography id={titleId} variant="subtitle2" component="figcaption">
        {title}
      </Typography>
      {children}
      {description && (
        <Typography id={descriptionId} variant="caption" color="text.secondary" component="p">
          {description}
        </Typography>
      )}
    </Box>
  );
}

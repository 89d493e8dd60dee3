/** Plain statement of what a page will hold once its feature lands — never fake data. */
import { Alert, Stack, Typography } from '@mui/material';

export function PlannedFeature({ title, summary, items }: { title: string; summary: string; items: string[] }) {
  return (
    <Stack spacing={2} sx={{ p: 3, maxWidth: 760 }}>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Alert severity="info">Not available yet in this version. {summary}</Alert>
      <Typography variant="body2">This page will let you:</Typography>
      <ul>
        {items.map((item) => (
          <li key={item}>
            <Typography variant="body2">{item}</Typography>
          </li>
        ))}
      </ul>
    </Stack>
  );
}

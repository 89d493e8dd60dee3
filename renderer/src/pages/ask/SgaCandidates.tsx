/** One SGA answer's public candidates, largest noisy cluster first, the released one marked. */
import { Box, Typography } from '@mui/material';

export function SgaCandidates({ candidates, selected }: { candidates: readonly string[]; selected: number | undefined }) {
  return (
    <Box component="ol" sx={{ m: 0, pl: 2.5 }} aria-label="public candidates">
      {candidates.map((c, i) => (
        <Typography component="li" variant="body2" key={i} sx={i === selected ? { fontWeight: 'bold' } : undefined} aria-current={i === selected ? 'true' : undefined}>
          {c || '(empty answer)'}
          {i === selected ? ' — released' : ''}
        </Typography>
      ))}
    </Box>
  );
}

/** Utility of the synthetic prompt on the held-out split, next to zero-shot and real public demonstrations. */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { z } from 'zod';
import type { utilitySchema } from '../../../../electron/shared/api/synthesis';

export function UtilityTable({ utility }: { utility: z.infer<typeof utilitySchema> }) {
  const pct = (x: number | null) => (x === null ? 'n/a (no public split)' : `${(100 * x).toFixed(1)} %`);
  const rows: [string, number | null][] = [
    ['DP synthetic prompt', utility.synthetic],
    ['Zero-shot', utility.zeroShot],
    ['Random real public demonstrations (non-private reference)', utility.realPublic],
  ];
  return (
    <>
      <Typography variant="body2">
        {utility.metric === 'accuracy' ? 'Accuracy' : 'ROUGE-L'} on {utility.examples} held-out examples
        {utility.labels && ` (${Object.entries(utility.labels).map(([label, n]) => `${label} ${n}`).join(', ')})`} with {utility.model}
      </Typography>
      <Table size="small" aria-label="utility">
        <TableHead>
          <TableRow>
            <TableCell>Prompt</TableCell>
            <TableCell align="right">{utility.metric === 'accuracy' ? 'Accuracy' : 'ROUGE-L'}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(([name, value]) => (
            <TableRow key={name}>
              <TableCell>{name}</TableCell>
              <TableCell align="right">{pct(value)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

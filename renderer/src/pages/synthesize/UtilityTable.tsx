/**
 * Utility of the synthetic prompt on the held-out split, next to zero-shot, real public
 * demonstrations and (classification) always answering the most common label, in accuracy
 * and balanced accuracy: a prompt that beats only accuracy may just answer the common label.
 */
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { z } from 'zod';
import type { utilitySchema } from '../../../../electron/shared/api/synthesis';
import { utilityVerdict } from '../../../../electron/shared/utilityVerdict';

type Utility = z.infer<typeof utilitySchema>;

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a (no public split)' : `${(100 * x).toFixed(1)} %`);

export function UtilityTable({ utility }: { utility: Utility }) {
  const metric = utility.metric === 'accuracy' ? 'Accuracy' : 'ROUGE-L';
  const { balanced, mostCommon, labels } = utility;
  const rows: [string, number | null, number | null | undefined][] = [
    ['DP synthetic prompt', utility.synthetic, balanced?.synthetic],
    ['Zero-shot', utility.zeroShot, balanced?.zeroShot],
    ['Random real public demonstrations (non-private reference)', utility.realPublic, balanced?.realPublic],
  ];
  if (mostCommon && labels) rows.push([`Always “${mostCommon.label}” (the most common label)`, mostCommon.accuracy, 1 / Object.keys(labels).length]);
  return (
    <>
      <Typography variant="body1" data-testid="utility-verdict">
        {utilityVerdict(utility)}
      </Typography>
      <Typography variant="body2">
        {metric} on {utility.examples} held-out examples
        {labels && ` (${Object.entries(labels).map(([label, n]) => `${label} ${n}`).join(', ')})`} with {utility.model}
      </Typography>
      <Table size="small" aria-label="utility">
        <TableHead>
          <TableRow>
            <TableCell>Prompt</TableCell>
            <TableCell align="right">{metric}</TableCell>
            {balanced && <TableCell align="right">Balanced accuracy</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(([name, value, balancedValue]) => (
            <TableRow key={name}>
              <TableCell>{name}</TableCell>
              <TableCell align="right">{pct(value)}</TableCell>
              {balanced && <TableCell align="right">{pct(balancedValue)}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

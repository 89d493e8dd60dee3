/** A table's head: one row of column titles. */
import { TableCell, TableHead, TableRow } from '@mui/material';

export function HeaderRow({ columns }: { columns: readonly string[] }) {
  return (
    <TableHead>
      <TableRow>
        {columns.map((c) => (
          <TableCell key={c}>{c}</TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

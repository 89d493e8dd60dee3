/** A record's full text with its PII spans highlighted (each mark names its kind). */
import { Box } from '@mui/material';
import type { PiiFinding } from '../../../../core/pii/types';
import { piiSegments } from './piiSegments';

export function PiiText({ text, findings }: { text: string; findings: readonly PiiFinding[] }) {
  return (
    <Box component="pre" aria-label="record text" sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', fontSize: 14, maxHeight: '45vh', overflow: 'auto' }}>
      {piiSegments(text, findings).map((s) =>
        s.kinds.length === 0 ? (
          s.text
        ) : (
          <Box component="mark" key={s.start} title={s.kinds.join(', ')} data-pii={s.kinds.join(' ')} sx={{ bgcolor: 'warning.light', color: 'warning.contrastText', borderRadius: 0.5, px: 0.25 }}>
            {s.text}
          </Box>
        ),
      )}
    </Box>
  );
}

/**
 * ε explained where it is chosen and counted: why "remaining ε" and "N more" disagree
 * (composition of privacy-loss distributions is not a sum), and a guide to choosing ε and δ.
 */
import { Alert, Typography } from '@mui/material';
import { DEFAULT_DELTA_RULE } from '../../../core/accounting/defaultDelta';

const COMPOSITION_NOTE =
  'Composition is not a sum: releases compose by convolving their privacy-loss distributions (PLD), so k releases of ε each cost less than k·ε, and ' +
  'cap − spent is neither what one more release costs nor the remaining count times ε. The count of further releases is what the accountant finds for the whole sequence.';

const EPSILON_GUIDE =
  `Choosing ε and δ: ε ≤ 1 is a strong guarantee, ε ≤ 8 a moderate one, as the literature reports; above that little is promised. δ is the chance the ` +
  `guarantee fails outright and must be ≪ 1/N for N privacy units (δ = 1/N allows releasing one unit's record whole); the default is ${DEFAULT_DELTA_RULE}, ` +
  'so it stays far below 1/N on small datasets too. What an ε buys depends on the data and the model: "Utility against ε" previews it on the public split for free.';

/** A short inline note beside a remaining-ε figure or a count of further releases. */
export function CompositionNote() {
  return (
    <Typography variant="caption" component="span" color="text.secondary" data-testid="composition-note" sx={{ display: 'block' }}>
      {COMPOSITION_NOTE}
    </Typography>
  );
}

export function EpsilonGuide() {
  return (
    <Alert severity="info" data-testid="epsilon-guide">
      {EPSILON_GUIDE}
    </Alert>
  );
}

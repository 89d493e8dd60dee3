/**
 * Set or change a dataset's budget (ε cap, δ — empty for the default min(1/(10·N), 1e-5) — and a
 * purpose). The change is itself a ledger entry; the service's warnings are shown. Once the
 * dataset has charges, a larger δ is refused here and by the service, with the reason.
 */
import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import type { BudgetDto } from '../../../../electron/shared/api/ledger';
import type { VeilApi } from '../../../../electron/shared/contract';
import { Section } from '../../components/Section';
import { useAsyncAction } from '../../components/useAsyncAction';
import { defaultDeltaHint, formFromBudget, parseBudgetForm, type BudgetFormState, type PrivacyUnits } from './budgetForm';
import { EpsilonGuide } from '../../components/epsilonGuide';

interface Props {
  api: VeilApi;
  dataset: string;
  budget: BudgetDto | null;
  /** N of the default δ (records or subjects of the private split), null when the split is empty, undefined while counted. */
  units: PrivacyUnits | null | undefined;
  /** Whether the dataset has charges: then δ may only go down. */
  charged: boolean;
}

/** Remount it (key) per dataset so the fields start from that dataset's budget. */
export function BudgetForm({ api, dataset, budget, units, charged }: Props) {
  const ceiling = charged && budget ? budget.delta : null;
  const [form, setForm] = useState<BudgetFormState>(() => formFromBudget(budget));
  const [errors, setErrors] = useState<Partial<Record<keyof BudgetFormState, string>>>({});
  const [outcome, setOutcome] = useState<{ message: string; warnings: string[] } | null>(null);
  const { busy, error, run } = useAsyncAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseBudgetForm(form, ceiling);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) return;
    const result = await run(() => api['budget.set']({ dataset, ...parsed.change }));
    if (!result) return;
    setOutcome({ message: `Budget set: ε = ${result.budget.epsilon}, δ = ${result.budget.delta.toExponential(2)}.`, warnings: result.warnings });
    setForm({ ...form, delta: String(result.budget.delta), purpose: '' });
  };
  const field = (key: keyof BudgetFormState, label: string, helper: string) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={(e) => (setForm({ ...form, [key]: e.target.value }), setOutcome(null))}
      error={Boolean(errors[key])}
      helperText={errors[key] ?? helper}
      size="small"
      sx={{ minWidth: key === 'purpose' ? 320 : 200 }}
    />
  );

  return (
    <Section title={budget ? 'Change the budget' : 'Set a budget'}>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label="budget settings">
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'start' }}>
          {field('epsilon', 'ε cap', 'total ε for every release from this dataset')}
          {field('delta', 'δ', defaultDeltaHint(units, ceiling))}
          {field('purpose', 'Purpose', 'optional; recorded in the ledger')}
          <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 0.5 }}>
            {budget ? 'Change budget' : 'Set budget'}
          </Button>
        </Stack>
      </Box>
      <EpsilonGuide />
      {error && <Alert severity="error">{error}</Alert>}
      {outcome && <Alert severity="success">{outcome.message}</Alert>}
      {outcome?.warnings.map((warning) => (
        <Alert key={warning} severity="warning">
          {warning}
        </Alert>
      ))}
    </Section>
  );
}

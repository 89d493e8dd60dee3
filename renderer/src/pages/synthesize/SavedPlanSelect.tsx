/** "Use saved plan": fills the settings with a synthetic-prompt plan saved from the planner (plan.list). */
import { MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import type { SavedPlan } from '../../../../electron/shared/api/planner';

export function SavedPlanSelect({ plans, onUse }: { plans: readonly SavedPlan[]; onUse: (plan: SavedPlan) => void }) {
  const [chosen, setChosen] = useState('');
  const synth = plans.filter((p) => p.request.workload.kind === 'synth');
  if (synth.length === 0) return null;
  const use = (id: string) => {
    const plan = synth.find((p) => String(p.id) === id);
    setChosen(id);
    if (plan) onUse(plan);
  };
  return (
    <TextField
      select
      label="Use saved plan"
      value={chosen}
      onChange={(e) => use(e.target.value)}
      helperText="fills the settings from a plan saved on the Budget page"
      size="small"
      sx={{ minWidth: 260 }}
    >
      {synth.map((p) => (
        <MenuItem key={p.id} value={String(p.id)}>
          {p.name} — {p.request.dataset}, ε = {p.request.epsilon}
        </MenuItem>
      ))}
    </TextField>
  );
}

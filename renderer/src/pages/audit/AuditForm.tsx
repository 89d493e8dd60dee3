/** What to audit: the dataset, its targets (baseline, stored DP runs, private answering, a prompt file), attacks, sample sizes, canaries. */
import { Button, Checkbox, FormControl, FormControlLabel, FormGroup, FormLabel, InputLabel, MenuItem, Select, Stack, TextField, Typography } from '@mui/material';
import type { MethodInput, MethodOutput } from '../../../../electron/shared/contract';

export interface AuditFormState {
  dataset: string;
  baseline: boolean;
  shots: string;
  runIds: number[];
  file: { name: string; text: string } | null;
  /** Private answering at ε per query ('' aggregation: the dataset's default). */
  answering: { on: boolean; aggregation: '' | 'vote' | 'embedding' | 'keyword' | 'ptr'; epsilon: string; ensemble: string; shots: string };
  attacks: ('label' | 'repeat' | 'inquiry')[];
  members: string;
  balance: 'balanced' | 'unbalanced';
  canaries: string;
}

export const initialAuditForm: AuditFormState = { dataset: '', baseline: true, shots: '4', runIds: [], file: null, answering: { on: false, aggregation: '', epsilon: '1', ensemble: '10', shots: '2' }, attacks: ['label', 'repeat'], members: '60', balance: 'balanced', canaries: '64' };

type Request = MethodInput<'audit.start'>;

const int = (raw: string, min: number, max: number) => (/^\d+$/.test(raw.trim()) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : null);

/** The request, or the first problem with the form. */
export function toAuditRequest(form: AuditFormState): { request: Request } | { error: string } {
  if (!form.dataset) return { error: 'Choose a dataset.' };
  const shots = int(form.shots, 1, 32);
  const members = int(form.members, 2, 2000);
  const canaries = int(form.canaries, 0, 1024);
  if (form.baseline && shots === null) return { error: 'Shots: a whole number from 1 to 32.' };
  if (members === null) return { error: 'Members: a whole number from 2 to 2000.' };
  if (canaries === null) return { error: 'Canaries: a whole number from 0 to 1024.' };
  if (form.attacks.length === 0) return { error: 'Choose at least one attack.' };
  const answering = form.answering.on ? answeringTarget(form.answering) : null;
  if (answering && 'error' in answering) return answering;
  const targets: Request['targets'] = [
    ...(form.baseline ? [{ kind: 'baseline' as const, shots: shots! }] : []),
    ...form.runIds.map((runId) => ({ kind: 'run' as const, runId })),
    ...(answering ? [answering.target] : []),
    ...(form.file ? [/"format"\s*:\s*"veil\.dp-prompt\/v1"/.test(form.file.text) ? { kind: 'dp-prompt' as const, document: form.file.text, name: form.file.name } : { kind: 'prompt' as const, text: form.file.text, name: form.file.name }] : []),
  ];
  if (targets.length === 0) return { error: 'Choose at least one target.' };
  return { request: { dataset: form.dataset, targets, attacks: form.attacks, members, balance: form.balance, canaries } };
}

function answeringTarget(a: AuditFormState['answering']): { target: Request['targets'][number] } | { error: string } {
  const epsilon = Number(a.epsilon);
  const ensemble = int(a.ensemble, 1, 200);
  const shots = int(a.shots, 1, 50);
  if (!(a.epsilon.trim() !== '' && epsilon > 0 && epsilon <= 100_000)) return { error: 'Answering ε: a number above 0 (at most 100000).' };
  if (ensemble === null) return { error: 'Answering teachers: a whole number from 1 to 200.' };
  if (shots === null) return { error: 'Answering shots: a whole number from 1 to 50.' };
  return { target: { kind: 'answering', epsilon, ensemble, shots, ...(a.aggregation ? { aggregation: a.aggregation } : {}) } };
}

interface Props {
  form: AuditFormState;
  datasets: MethodOutput<'vault.listDatasets'>;
  runs: MethodOutput<'synth.list'>;
  busy: boolean;
  onChange: (form: AuditFormState) => void;
  onStart: () => void;
}

const ATTACKS = [
  ['label', 'label probability (Duan et al.)'],
  ['repeat', 'repeat: ROUGE-L and embedding cosine (Wen et al.)'],
  ['inquiry', 'inquiry: “have you seen this text?” (Wen et al.)'],
] as const;

export function AuditForm({ form, datasets, runs, busy, onChange, onStart }: Props) {
  const set = (change: Partial<AuditFormState>) => onChange({ ...form, ...change });
  const setAnswering = (change: Partial<AuditFormState['answering']>) => set({ answering: { ...form.answering, ...change } });
  const datasetRuns = runs.filter((r) => r.dataset === form.dataset && r.status === 'succeeded');
  const readFile = async (file: File | undefined) => set({ file: file ? { name: file.name, text: await file.text() } : null });
  return (
    <Stack spacing={2} component="form" onSubmit={(e) => (e.preventDefault(), onStart())}>
      <FormControl size="small" sx={{ maxWidth: 360 }}>
        <InputLabel id="audit-dataset">Dataset</InputLabel>
        <Select labelId="audit-dataset" label="Dataset" value={form.dataset} onChange={(e) => set({ dataset: e.target.value, runIds: [] })}>
          {datasets.map((d) => (
            <MenuItem key={d.id} value={d.name}>{d.name}</MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl component="fieldset">
        <FormLabel component="legend">Targets</FormLabel>
        <FormGroup role="group" aria-label="Targets">
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <FormControlLabel control={<Checkbox checked={form.baseline} onChange={(e) => set({ baseline: e.target.checked })} />} label="Plain prompt of real private records (baseline)" />
            <TextField size="small" label="Shots" value={form.shots} onChange={(e) => set({ shots: e.target.value })} sx={{ width: 90 }} />
          </Stack>
          {datasetRuns.map((r) => (
            <FormControlLabel
              key={r.id}
              control={<Checkbox checked={form.runIds.includes(r.id)} onChange={(e) => set({ runIds: e.target.checked ? [...form.runIds, r.id] : form.runIds.filter((id) => id !== r.id) })} />}
              label={`DP synthesis run ${r.id} (ε ${r.epsilon}, ${r.shots} shots)`}
            />
          ))}
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <FormControlLabel control={<Checkbox checked={form.answering.on} onChange={(e) => setAnswering({ on: e.target.checked })} />} label="Private answering" />
            <FormControl size="small" sx={{ minWidth: 150 }}>
              <InputLabel id="audit-aggregation">Aggregation</InputLabel>
              <Select labelId="audit-aggregation" label="Aggregation" value={form.answering.aggregation} onChange={(e) => setAnswering({ aggregation: e.target.value as AuditFormState['answering']['aggregation'] })}>
                <MenuItem value="">default for the task</MenuItem>
                {(['vote', 'embedding', 'keyword', 'ptr'] as const).map((a) => (
                  <MenuItem key={a} value={a}>{a}</MenuItem>
                ))}
              </Select>
            </FormControl>
            <TextField size="small" label="ε per query" value={form.answering.epsilon} onChange={(e) => setAnswering({ epsilon: e.target.value })} sx={{ width: 110 }} />
            <TextField size="small" label="Teachers" value={form.answering.ensemble} onChange={(e) => setAnswering({ ensemble: e.target.value })} sx={{ width: 90 }} />
            <TextField size="small" label="Answer shots" value={form.answering.shots} onChange={(e) => setAnswering({ shots: e.target.value })} sx={{ width: 110 }} />
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button variant="outlined" component="label" size="small">
              Prompt file…
              <input hidden type="file" aria-label="Prompt file" accept=".json,.txt,.md" onChange={(e) => void readFile(e.target.files?.[0])} />
            </Button>
            <Typography variant="body2">{form.file ? form.file.name : 'a veil.dp-prompt/v1 export or your own prompt (Text:/Label: lines)'}</Typography>
          </Stack>
        </FormGroup>
      </FormControl>
      <FormControl component="fieldset">
        <FormLabel component="legend">Attacks</FormLabel>
        <FormGroup role="group" aria-label="Attacks" row>
          {ATTACKS.map(([name, label]) => (
            <FormControlLabel
              key={name}
              control={<Checkbox checked={form.attacks.includes(name)} onChange={(e) => set({ attacks: e.target.checked ? [...form.attacks, name] : form.attacks.filter((a) => a !== name) })} />}
              label={label}
            />
          ))}
        </FormGroup>
      </FormControl>
      <Stack direction="row" spacing={2}>
        <TextField size="small" label="Members per target" value={form.members} onChange={(e) => set({ members: e.target.value })} />
        <FormControl size="small" sx={{ minWidth: 200 }}>
          <InputLabel id="audit-balance">Members : non-members</InputLabel>
          <Select labelId="audit-balance" label="Members : non-members" value={form.balance} onChange={(e) => set({ balance: e.target.value as AuditFormState['balance'] })}>
            <MenuItem value="balanced">1 : 1 (balanced)</MenuItem>
            <MenuItem value="unbalanced">1 : 4 (unbalanced)</MenuItem>
          </Select>
        </FormControl>
        <TextField size="small" label="Canaries" helperText="one-run audit; 0 = none" value={form.canaries} onChange={(e) => set({ canaries: e.target.value })} />
      </Stack>
      <div>
        <Button type="submit" variant="contained" disabled={busy}>Start audit</Button>
      </div>
    </Stack>
  );
}

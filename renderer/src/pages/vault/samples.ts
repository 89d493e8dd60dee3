/** The sample datasets offered in one click, and a free name for a new copy of one. */
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { MethodInput } from '../../../../electron/shared/contract';
import { uniqueName } from './datasetForm';

export type SampleKind = NonNullable<MethodInput<'vault.createSample'>['kind']>;

export const SAMPLES: { value: SampleKind; label: string; name: string }[] = [
  { value: 'spam', label: 'SpamAssassin e-mails (spam / ham)', name: 'SpamAssassin sample' },
  { value: 'clinic', label: 'Clinic notes (synthetic, with canaries)', name: 'Clinic notes sample' },
];

export function sampleRequest(kind: SampleKind, datasets: readonly DatasetDto[]): MethodInput<'vault.createSample'> {
  const base = SAMPLES.find((s) => s.value === kind)?.name ?? kind;
  return { kind, name: uniqueName(base, datasets.map((d) => d.name)) };
}

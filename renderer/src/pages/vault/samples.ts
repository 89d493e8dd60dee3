/**
 * The sample datasets offered in one click. As in the CLI (`veil vault sample-data`), a sample
 * is loaded once, under its own name: loading it again refuses and offers the loaded one.
 */
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import type { MethodInput } from '../../../../electron/shared/contract';

export type SampleKind = NonNullable<MethodInput<'vault.createSample'>['kind']>;

export const SAMPLES: { value: SampleKind; label: string; name: string }[] = [
  { value: 'spam', label: 'SpamAssassin e-mails (spam / ham)', name: 'SpamAssassin sample' },
  { value: 'clinic', label: 'Clinic notes (synthetic, with canaries)', name: 'Clinic notes sample' },
  { value: 'clinic-summaries', label: 'Clinic note summaries (synthetic, generation)', name: 'Clinic summaries sample' },
];

const sampleName = (kind: SampleKind) => SAMPLES.find((s) => s.value === kind)?.name ?? kind;

/** The dataset that already holds this sample (by its name), or null. */
export function loadedSample(kind: SampleKind, datasets: readonly DatasetDto[]): DatasetDto | null {
  return datasets.find((d) => d.name === sampleName(kind)) ?? null;
}

/** Why the sample is not loaded again, for the page's message. */
export const sampleLoadedMessage = (dataset: DatasetDto) => `The sample is already loaded as “${dataset.name}”: it is not loaded twice.`;

export function sampleRequest(kind: SampleKind): MethodInput<'vault.createSample'> {
  return { kind, name: sampleName(kind) };
}

/**
 * The dataset form (create and edit) without a DOM: field state, validation into the
 * `vault.createDataset` / `vault.updateDataset` fields, and a free name for a sample.
 */
import type { DatasetDto } from '../../../../electron/shared/api/vault';
import { parseOptionalInteger } from '../../components/format';

export interface DatasetFormState {
  name: string;
  description: string;
  task: DatasetDto['task'];
  /** The public label set, one per line or comma-separated. */
  labels: string;
  privacyUnit: DatasetDto['privacyUnit'];
  subjectCap: string;
}

export type DatasetFields = Pick<DatasetDto, 'name' | 'description' | 'task' | 'labels' | 'privacyUnit' | 'subjectCap'>;
export type DatasetFormErrors = Partial<Record<keyof DatasetFormState, string>>;

export const emptyDatasetForm: DatasetFormState = { name: '', description: '', task: 'classification', labels: '', privacyUnit: 'record', subjectCap: '' };

export function formFromDataset(d: DatasetDto): DatasetFormState {
  return { name: d.name, description: d.description, task: d.task, labels: d.labels.join('\n'), privacyUnit: d.privacyUnit, subjectCap: String(d.subjectCap) };
}

/** Labels from the text field: split on commas and new lines, trimmed, empty and repeated ones dropped. */
export function parseLabels(text: string): string[] {
  return [...new Set(text.split(/[,\n]/).map((l) => l.trim()).filter((l) => l !== ''))];
}

export function validateDatasetForm(form: DatasetFormState): { ok: true; fields: DatasetFields } | { ok: false; errors: DatasetFormErrors } {
  const errors: DatasetFormErrors = {};
  const name = form.name.trim();
  const labels = form.task === 'classification' ? parseLabels(form.labels) : [];
  const cap = parseOptionalInteger(form.subjectCap, 1, 1000);
  if (name === '' || name.length > 200) errors.name = 'a name of 1 to 200 characters';
  if (form.description.length > 2000) errors.description = 'at most 2,000 characters';
  if (form.task === 'classification' && labels.length === 0) errors.labels = 'a classification dataset needs its public label set';
  else if (labels.length > 1000 || labels.some((l) => l.length > 200)) errors.labels = 'at most 1,000 labels of up to 200 characters';
  if (!cap.ok) errors.subjectCap = cap.error;
  if (Object.keys(errors).length > 0 || !cap.ok) return { ok: false, errors };
  return { ok: true, fields: { name, description: form.description, task: form.task, labels, privacyUnit: form.privacyUnit, subjectCap: cap.value ?? 1 } };
}

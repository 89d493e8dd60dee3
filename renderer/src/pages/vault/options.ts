/** Option lists shared by the filters, the inline editors and the drawer. */
import { piiKinds } from '../../../../core/pii/types';
import { NO_LABEL, SPLITS, splitName } from './chartData';

export interface Option {
  value: string;
  label: string;
}

/** The public label set, with "" for records without a label. */
export const labelOptions = (labels: readonly string[]): Option[] => [...labels.map((l) => ({ value: l, label: l })), { value: '', label: NO_LABEL }];

export const splitOptions: Option[] = SPLITS.map((s) => ({ value: s, label: splitName[s] }));

export const piiOptions: Option[] = [{ value: 'any', label: 'any kind' }, ...piiKinds.map((k) => ({ value: k, label: k }))];

/**
 * Loader for the reference vectors (test/fixtures/reference/accountant_vectors.json, a copy of
 * the project's shared ../shared/reference file so that a clean clone tests alone; or
 * $VEIL_REFERENCE_VECTORS), with the file's number conventions: JSON numbers are float64,
 * strings are high-precision decimals or 'Infinity' / '-Infinity' / 'NaN'.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const defaultPath = fileURLToPath(new URL('../../../fixtures/reference/accountant_vectors.json', import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the file is plain JSON data
export const vectors: any = JSON.parse(readFileSync(process.env.VEIL_REFERENCE_VECTORS ?? defaultPath, 'utf8'));

/** A reference value as a float64. */
export function num(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

/** Natural log of a decimal string, exact far outside the float64 range ('4.5e-5564'). */
export function logOfDecimal(value: string): number {
  const [mantissa, exponent = '0'] = value.toLowerCase().split('e');
  return Math.log(Number(mantissa)) + Number(exponent) * Math.LN10;
}

export function relativeError(actual: number, expected: number): number {
  if (actual === expected) return 0;
  return Math.abs(actual - expected) / Math.abs(expected);
}

/** dp_accounting DEFAULT_RDP_ORDERS: 1.1, 1.2, …, 10.9, 11, …, 63, 128, 256, 512, 1024. */
export const DP_ACCOUNTING_ORDERS: number[] = [
  ...Array.from({ length: 99 }, (_, x) => 1 + (x + 1) / 10),
  ...Array.from({ length: 53 }, (_, x) => 11 + x),
  128, 256, 512, 1024,
];

/** opacus RDPAccountant.DEFAULT_ALPHAS: 1.1, …, 10.9, 12, …, 63. */
export const OPACUS_ORDERS: number[] = [
  ...Array.from({ length: 99 }, (_, x) => 1 + (x + 1) / 10),
  ...Array.from({ length: 52 }, (_, x) => 12 + x),
];

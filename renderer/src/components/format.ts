/** Display helpers: byte sizes, counts, optional integer fields, error messages. */

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return 'unknown';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit ? 1 : 0)} ${BYTE_UNITS[unit]}`;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const grouped = new Intl.NumberFormat('en-US');

/** "1,234,567 (1.2M)"; small numbers without the compact form. */
export function formatCount(n: number | null): string {
  if (n === null) return 'unknown';
  return n < 10_000 ? grouped.format(n) : `${grouped.format(n)} (${compact.format(n)})`;
}

export type ParsedInteger = { ok: true; value: number | undefined } | { ok: false; error: string };

/** An optional whole-number form field: empty means "use the default". */
export function parseOptionalInteger(text: string, min: number, max: number): ParsedInteger {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || value < min || value > max) return { ok: false, error: `a whole number from ${min} to ${max}` };
  return { ok: true, value };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

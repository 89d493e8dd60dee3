/**
 * Keyboard movement in the record table: the active row after a navigation key, or null
 * when the key does not move it. `pageRows` is how many rows fit in the viewport.
 */
export function nextActiveRow(key: string, active: number, total: number, pageRows: number): number | null {
  if (total === 0) return null;
  const clamp = (i: number) => Math.min(Math.max(i, 0), total - 1);
  switch (key) {
    case 'ArrowDown':
      return clamp(active + 1);
    case 'ArrowUp':
      return clamp(active - 1);
    case 'PageDown':
      return clamp(active + Math.max(pageRows - 1, 1));
    case 'PageUp':
      return clamp(active - Math.max(pageRows - 1, 1));
    case 'Home':
      return 0;
    case 'End':
      return total - 1;
    default:
      return null;
  }
}

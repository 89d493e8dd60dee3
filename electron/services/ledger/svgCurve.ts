/**
 * An inline SVG chart of the ε(δ) curve (log-scale δ), with the cap and the dataset's δ
 * marked: self-contained, so the report prints without scripts or network. Points without a
 * finite ε (δ below the δ₀ of an (ε, δ₀) charge) cannot be drawn: a line under the chart
 * names them.
 */
interface Point {
  delta: number;
  /** ε upper bound; Infinity or "Infinity" where no finite ε exists at this δ. */
  epsilon: number | 'Infinity';
}

const WIDTH = 520;
const HEIGHT = 260;
const PAD = { left: 56, right: 16, top: 16, bottom: 44 };

const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A δ tick: exact to three digits (the curve's δ are the dataset's δ times powers of ten, e.g. 3.61e-5). */
const deltaLabel = (delta: number) => Number(delta.toPrecision(3)).toExponential();

export function svgCurve(points: readonly Point[], marks: { cap: number; delta: number }): string {
  const finite = points.flatMap((p) => (typeof p.epsilon === 'number' && Number.isFinite(p.epsilon) ? [{ delta: p.delta, epsilon: p.epsilon }] : []));
  const infinite = points.filter((p) => !finite.some((f) => f.delta === p.delta)).map((p) => deltaLabel(p.delta));
  const note = infinite.length === 0 ? '' : `\n<p>No finite ε at δ = ${infinite.join(', ')} (ε = ∞ there): a release was charged as (ε, δ₀)-DP with δ₀ above ${infinite.length === 1 ? 'that δ' : 'these δ'}, and guarantees nothing below δ₀.</p>`;
  if (finite.length === 0) return points.length === 0 ? '<p>No privacy spent yet: the curve is ε = 0.</p>' : note.trimStart();
  const logs = finite.map((p) => Math.log10(p.delta));
  const [xMin, xMax] = [Math.min(...logs, Math.log10(marks.delta)), Math.max(...logs, Math.log10(marks.delta))];
  const yMax = Math.max(marks.cap, ...finite.map((p) => p.epsilon)) * 1.1;
  const x = (delta: number) => PAD.left + ((Math.log10(delta) - xMin) / (xMax - xMin || 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (epsilon: number) => HEIGHT - PAD.bottom - (epsilon / yMax) * (HEIGHT - PAD.top - PAD.bottom);
  const line = finite.map((p) => `${x(p.delta).toFixed(1)},${y(p.epsilon).toFixed(1)}`).join(' ');
  const xTicks = finite.map((p) => `<text x="${x(p.delta).toFixed(1)}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle">${deltaLabel(p.delta)}</text>`);
  const yTicks = [0, 0.5, 1].map((f) => `<text x="${PAD.left - 6}" y="${(y(f * yMax) + 4).toFixed(1)}" text-anchor="end">${(f * yMax).toPrecision(3)}</text>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeXml('ε(δ) privacy curve')}" font-size="11" font-family="sans-serif">`,
    `<line x1="${PAD.left}" y1="${HEIGHT - PAD.bottom}" x2="${WIDTH - PAD.right}" y2="${HEIGHT - PAD.bottom}" stroke="#444"/>`,
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${HEIGHT - PAD.bottom}" stroke="#444"/>`,
    `<line x1="${PAD.left}" y1="${y(marks.cap).toFixed(1)}" x2="${WIDTH - PAD.right}" y2="${y(marks.cap).toFixed(1)}" stroke="#c62828" stroke-dasharray="6 4"/>`,
    `<text x="${WIDTH - PAD.right}" y="${(y(marks.cap) - 4).toFixed(1)}" text-anchor="end" fill="#c62828">cap ε=${marks.cap}</text>`,
    `<line x1="${x(marks.delta).toFixed(1)}" y1="${PAD.top}" x2="${x(marks.delta).toFixed(1)}" y2="${HEIGHT - PAD.bottom}" stroke="#888" stroke-dasharray="2 3"/>`,
    `<polyline points="${line}" fill="none" stroke="#1565c0" stroke-width="2"/>`,
    ...finite.map((p) => `<circle cx="${x(p.delta).toFixed(1)}" cy="${y(p.epsilon).toFixed(1)}" r="3" fill="#1565c0"/>`),
    ...xTicks,
    ...yTicks,
    `<text x="${(PAD.left + WIDTH - PAD.right) / 2}" y="${HEIGHT - 6}" text-anchor="middle">δ (log scale; dotted: the dataset's δ)</text>`,
    `<text x="14" y="${(PAD.top + HEIGHT - PAD.bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(PAD.top + HEIGHT - PAD.bottom) / 2})">ε spent (upper bound)</text>`,
    '</svg>',
  ].join('\n') + note;
}

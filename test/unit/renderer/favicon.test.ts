/** The page names its icon inline (a data: SVG the CSP's img-src allows), so browsers never request /favicon.ico (it was a 404). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('renderer favicon', () => {
  it('is an inline SVG icon', () => {
    const html = readFileSync(join(import.meta.dirname, '../../../renderer/index.html'), 'utf8');
    const href = /<link rel="icon" type="image\/svg\+xml" href="(data:image\/svg\+xml,[^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    expect(decodeURIComponent(href!.slice('data:image/svg+xml,'.length))).toMatch(/^<svg xmlns='http:\/\/www.w3.org\/2000\/svg'.*<\/svg>$/);
    expect(html).toMatch(/img-src 'self' data:/);
  });
});

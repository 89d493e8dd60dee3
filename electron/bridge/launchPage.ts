/**
 * What the browser is opened with. The launch URL carries the session token, and a program
 * started with a URL keeps it in its command line, which every local user can read (`ps`).
 * The browser is therefore given a private file instead: a page, readable by the owner only
 * (0600, in a fresh 0700 folder), that forwards to the launch URL. It is removed when the
 * server stops.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LaunchPage {
  /** file:// URL of the page. */
  url: string;
  path: string;
  remove(): void;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function writeLaunchPage(launchUrl: string): LaunchPage {
  const dir = mkdtempSync(join(tmpdir(), 'veil-launch-'));
  const path = join(dir, 'open-veil.html');
  const target = escapeAttribute(launchUrl);
  writeFileSync(
    path,
    `<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0; url=${target}">\n<title>Veil</title>\n<p><a href="${target}">Open Veil</a></p>\n`,
    { mode: 0o600, flag: 'wx' },
  );
  return { url: pathToFileURL(path).href, path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

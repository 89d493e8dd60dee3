/** Watching a child process that serves Veil (`veil serve`, `npm start`): its launch URL, its exit, its port. */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect } from 'node:net';

export interface WatchedServer {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The launch URL `parse` finds in stdout; rejects if the process exits (or `parse` throws) first. */
  launchUrl: Promise<string>;
  stdout(): string;
}

export function watchServer(child: ChildProcessWithoutNullStreams, parse: (stdout: string) => string | undefined, name: string): WatchedServer {
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const launchUrl = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      try {
        const found = parse(stdout);
        if (found) resolve(found);
      } catch (error) {
        reject(error);
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`${name} exited (${code ?? signal}) before printing its URL:\n${stdout}\n${stderr}`)));
  });
  return { exited, launchUrl, stdout: () => stdout };
}

export const portIsClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });

/** The model host client with a fake process: replies, progress, crashes, bounded restarts. */
import { describe, expect, it } from 'vitest';
import { describeExit, ModelHostClient, ModelHostCrashedError } from '../../../../electron/services/model/modelHostClient';
import type { HostProcess } from '../../../../electron/workers/launchModelHost';
import type { HostMessage, ParentMessage } from '../../../../electron/workers/modelHostProtocol';

/** Wakes `until` whenever a fake host is launched or sent a message. */
const waiters: (() => void)[] = [];
const changed = () => waiters.splice(0).forEach((wake) => wake());

/** Resolves once `condition` holds, re-checked after every launch and every message sent (no sleeps). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => waiters.push(resolve));
}

class FakeHost implements HostProcess {
  readonly pid = 4242;
  sent: ParentMessage[] = [];
  private messageListeners: ((m: HostMessage) => void)[] = [];
  private exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
  stderr = '';

  constructor() {
    setTimeout(() => this.emit({ type: 'ready', pid: this.pid }), 0);
  }
  send(message: ParentMessage): void {
    this.sent.push(message);
    changed();
  }
  onMessage(listener: (m: HostMessage) => void): void {
    this.messageListeners.push(listener);
  }
  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.exitListeners.push(listener);
  }
  stderrTail(): string {
    return this.stderr;
  }
  kill(): void {
    this.exit(null, 'SIGKILL');
  }
  emit(message: HostMessage): void {
    for (const l of this.messageListeners) l(message);
  }
  exit(code: number | null, signal: string | null): void {
    for (const l of this.exitListeners) l(code, signal);
  }
}

function fakeClient(): { client: ModelHostClient; hosts: FakeHost[] } {
  const hosts: FakeHost[] = [];
  const client = new ModelHostClient(async () => {
    const host = new FakeHost();
    hosts.push(host);
    changed();
    return host;
  });
  return { client, hosts };
}

describe('model host client', () => {
  it('matches replies to requests and forwards progress', async () => {
    const { client, hosts } = fakeClient();
    const progress: number[] = [];
    const pending = client.request<string>({ op: 'hardware' }, { onProgress: (p) => progress.push(p) });
    await until(() => hosts[0]?.sent.length === 1);
    const [{ id }] = hosts[0].sent as { id: number }[];
    hosts[0].emit({ type: 'progress', id, progress: 0.5 });
    hosts[0].emit({ type: 'reply', id, ok: true, result: 'done' });
    await expect(pending).resolves.toBe('done');
    expect(progress).toEqual([0.5]);
    const failing = client.request({ op: 'unload' });
    await until(() => hosts[0].sent.length === 2);
    hosts[0].emit({ type: 'reply', id: (hosts[0].sent[1] as { id: number }).id, ok: false, error: 'no model' });
    await expect(failing).rejects.toThrow('no model');
    await client.stop();
  });

  it('fails pending requests with a clear crash error, restarts, and stops restarting after repeated crashes', async () => {
    const { client, hosts } = fakeClient();
    const crashes: string[] = [];
    client.onCrash = (m) => crashes.push(m);
    for (let i = 0; i < 5; i++) {
      const pending = client.request({ op: 'hardware' });
      // Each host serves one request before it crashes: the i-th request goes to the i-th host.
      await until(() => hosts[i]?.sent.length === 1);
      const host = hosts[i];
      host.stderr = 'loading\nGGML_ASSERT(x >= 1) failed\n';
      host.exit(null, 'SIGABRT');
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelHostCrashedError);
      expect((error as Error).message).toMatch(/killed by SIGABRT — llama.cpp aborted.*GGML_ASSERT\(x >= 1\) failed/);
    }
    expect(crashes).toHaveLength(5);
    expect(client.status().restarts).toBe(3);
    expect(client.status().lastCrash?.message).toMatch(/restarts on next use/);
    expect(hosts.length).toBe(5); // 3 eager restarts + 1 on next use after the limit
    await client.stop();
    expect(client.status().running).toBe(false);
  });

  it('describes ordinary exits without blaming llama.cpp', () => {
    expect(describeExit(1, null, 'something\n')).toBe('the model host process exited with code 1');
    expect(describeExit(134, null, '')).toMatch(/llama.cpp aborted/);
  });
});

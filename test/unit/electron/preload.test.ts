/**
 * The preload against a mocked `electron`: `window.veil` carries exactly the contract's
 * method names plus `on`, each method invokes its own IPC channel, and `on` filters the
 * single event channel and returns an unsubscribe.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { eventNames, methodNames } from '../../../electron/shared/contract';

const fake = vi.hoisted(() => ({ exposed: new Map<string, Record<string, unknown>>() }));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const ipcRenderer = Object.assign(new Emitter(), { invoke: vi.fn(async (...args: unknown[]) => ({ echoed: args })) });
  return { ipcRenderer, contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => fake.exposed.set(key, api) } };
});

const { ipcRenderer } = (await import('electron')) as unknown as { ipcRenderer: EventEmitter & { invoke: ReturnType<typeof vi.fn> } };
await import('../../../electron/preload/index');
const veil = fake.exposed.get('veil') as Record<string, (...args: unknown[]) => unknown>;
const EVENT_CHANNEL = 'veil:event';

describe('preload', () => {
  it('exposes exactly the contract methods and `on` as window.veil, nothing else', () => {
    expect([...fake.exposed.keys()]).toEqual(['veil']);
    expect(Object.keys(veil).sort()).toEqual([...methodNames, 'on'].sort());
    expect(veil).not.toHaveProperty('invoke');
  });

  it('sends each method on its own channel with its input (an empty object when none)', async () => {
    await expect(veil['app.info']()).resolves.toEqual({ echoed: ['app.info', {}] });
    await veil['jobs.get']({ id: 'j1' });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('jobs.get', { id: 'j1' });
  });

  it('delivers only the subscribed event and stops after unsubscribe', () => {
    const [wanted, other] = eventNames;
    const listener = vi.fn();
    const unsubscribe = veil.on(wanted, listener) as () => void;
    expect(typeof unsubscribe).toBe('function');
    ipcRenderer.emit(EVENT_CHANNEL, {}, wanted, { n: 1 });
    ipcRenderer.emit(EVENT_CHANNEL, {}, other, { n: 2 });
    expect(listener.mock.calls).toEqual([[{ n: 1 }]]);
    unsubscribe();
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(0);
    ipcRenderer.emit(EVENT_CHANNEL, {}, wanted, { n: 3 });
    expect(listener).toHaveBeenCalledOnce();
  });

  it('refuses an event name outside the contract', () => {
    expect(() => veil.on('no.such.event', () => undefined)).toThrow(/unknown event/);
  });
});

/**
 * Browser-mode client: the same typed API as the Electron preload, over the loopback
 * bridge. The per-launch token arrives in the URL fragment (#token=…), is kept in
 * sessionStorage and sent as a Bearer header; events stream from /api/events.
 */
import { eventNames, methodNames, type EventName, type VeilApi } from '../../../electron/shared/contract';

const TOKEN_KEY = 'veil.token';

/** Take the token from the fragment (then scrub it from the address bar) or from this tab's storage. */
export function takeToken(location: Location, storage: Storage, history: History): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    storage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', `${location.pathname}${location.search}`);
  }
  return storage.getItem(TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

type Listener = (payload: unknown) => void;

export function createBridgeClient(token: string, base = ''): VeilApi {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const listeners = new Map<EventName, Set<Listener>>();
  let streaming = false;

  async function stream(): Promise<void> {
    streaming = true;
    try {
      const response = await fetch(`${base}/api/events`, { headers });
      if (!response.ok || !response.body) throw new ApiError('event stream refused', response.status);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1] as EventName | undefined;
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) for (const l of listeners.get(event) ?? []) l(JSON.parse(data));
        }
      }
    } finally {
      streaming = false;
    }
  }

  const api: Record<string, unknown> = {};
  for (const name of methodNames) {
    api[name] = async (input: unknown) => {
      const response = await fetch(`${base}/api/call/${name}`, { method: 'POST', headers, body: JSON.stringify(input ?? {}) });
      const body = (await response.json()) as { result?: unknown; error?: string };
      if (!response.ok) throw new ApiError(body.error ?? `HTTP ${response.status}`, response.status);
      return body.result;
    };
  }
  api.on = (event: EventName, listener: Listener) => {
    if (!eventNames.includes(event)) throw new Error(`unknown event ${event}`);
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event)!.add(listener);
    if (!streaming) void stream().catch(() => undefined);
    return () => listeners.get(event)?.delete(listener);
  };
  return api as VeilApi;
}

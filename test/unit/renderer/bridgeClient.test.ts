/**
 * The browser-mode client: the token is taken from the URL fragment and scrubbed from the
 * address bar, every call carries it as a Bearer header, and event subscriptions share one
 * stream and return an unsubscribe (fetch and the event stream are faked).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createBridgeClient, takeToken } from '../../../renderer/src/api/bridgeClient';
import { eventNames } from '../../../electron/shared/contract';

function fakeBrowser(href: string) {
  const url = new URL(href);
  const items = new Map<string, string>();
  const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
  const history = { replaceState: vi.fn((_state: unknown, _title: string, next: string) => void (url.href = new URL(next, url).href)) };
  return { url, take: () => takeToken(url as unknown as Location, storage as unknown as Storage, history as unknown as History), history };
}

describe('takeToken', () => {
  it('takes the token from the fragment, removes it from the URL and remembers it for the tab', () => {
    const tab = fakeBrowser('http://127.0.0.1:4000/?x=1#token=abc_DEF-123');
    expect(tab.take()).toBe('abc_DEF-123');
    expect(tab.url.href).toBe('http://127.0.0.1:4000/?x=1');
    expect(tab.take()).toBe('abc_DEF-123');
    expect(tab.history.replaceState).toHaveBeenCalledOnce();
  });

  it('has no token when the page was opened without one', () => {
    expect(fakeBrowser('http://127.0.0.1:4000/#/vault').take()).toBeNull();
  });
});

/** A fetch that answers API calls with `answer` and holds the event stream open for `push`. */
function fakeFetch(answer: (url: string) => Response) {
  const encoder = new TextEncoder();
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    if (!url.endsWith('/api/events')) return answer(url);
    return new Response(new ReadableStream<Uint8Array>({ start: (c) => void (stream = c) }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, push: (text: string) => stream!.enqueue(encoder.encode(text)) };
}

afterEach(() => vi.unstubAllGlobals());

describe('createBridgeClient', () => {
  it('posts each call with the Bearer token and returns its result', async () => {
    const { fetch } = fakeFetch(() => Response.json({ result: { name: 'Veil' } }));
    const api = createBridgeClient('tok123', 'http://127.0.0.1:4000');
    await expect(api['app.info']({})).resolves.toEqual({ name: 'Veil' });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('http://127.0.0.1:4000/api/call/app.info');
    expect(init).toMatchObject({ method: 'POST', body: '{}', headers: { Authorization: 'Bearer tok123' } });
  });

  it('turns a refused call into an ApiError with the status', async () => {
    fakeFetch(() => Response.json({ error: 'missing or wrong token' }, { status: 401 }));
    const call = createBridgeClient('wrong')['app.info']({});
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toMatchObject({ status: 401, message: 'missing or wrong token' });
  });

  it('streams events to subscribers over one authorised stream, and unsubscribe stops delivery', async () => {
    const { fetch, push } = fakeFetch(() => Response.json({}));
    const api = createBridgeClient('tok123');
    const [event] = eventNames;
    const leaving = vi.fn();
    const staying = vi.fn();
    const unsubscribe = api.on(event, leaving);
    api.on(event, staying);
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0][1]).toMatchObject({ headers: { Authorization: 'Bearer tok123' } });
    push(`: connected\n\nevent: ${event}\ndata: {"n":`);
    push('1}\n\n');
    await vi.waitFor(() => expect(staying).toHaveBeenCalledWith({ n: 1 }));
    expect(leaving).toHaveBeenCalledWith({ n: 1 });
    unsubscribe();
    push(`event: ${event}\ndata: {"n":2}\n\n`);
    await vi.waitFor(() => expect(staying).toHaveBeenCalledTimes(2));
    expect(leaving).toHaveBeenCalledOnce();
  });
});

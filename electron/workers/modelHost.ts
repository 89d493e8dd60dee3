/**
 * Entry point of the model host process: llama.cpp runs here, never in the app process,
 * so a GGUF that trips a GGML assertion (which aborts the process) cannot take the app
 * down. Started with child_process.fork (CLI, browser mode, tests — through tsx when
 * running from source) or Electron's utilityProcess.fork; both hand it a message port:
 * `process.send`/'message' for fork, `process.parentPort` for utilityProcess.
 */
import { LlamaEngine } from './llamaEngine';
import type { HostMessage, ParentMessage } from './modelHostProtocol';

interface Port {
  send(message: HostMessage): void;
  onMessage(listener: (message: ParentMessage) => void): void;
}

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

function connect(): Port {
  const electronPort = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (electronPort) {
    return {
      send: (m) => electronPort.postMessage(m),
      onMessage: (listener) => electronPort.on('message', (e) => listener(e.data as ParentMessage)),
    };
  }
  if (process.send) {
    process.on('disconnect', () => process.exit(0));
    return {
      send: (m) => void process.send?.(m),
      onMessage: (listener) => process.on('message', (m) => listener(m as ParentMessage)),
    };
  }
  throw new Error('the model host must be started by the app (fork or utilityProcess)');
}

const port = connect();
const engine = new LlamaEngine();
const running = new Map<number, AbortController>();

port.onMessage((message) => {
  if ('cancel' in message) {
    running.get(message.cancel)?.abort();
    return;
  }
  const { id, request } = message;
  const controller = new AbortController();
  running.set(id, controller);
  engine
    .serial(() => engine.handle(request, controller.signal, (progress) => port.send({ type: 'progress', id, progress })))
    .then(
      (result) => port.send({ type: 'reply', id, ok: true, result }),
      (error: unknown) => port.send({ type: 'reply', id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => running.delete(id));
});

port.send({ type: 'ready', pid: process.pid });

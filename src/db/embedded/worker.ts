import { parentPort, workerData } from 'node:worker_threads';
import { type EmbeddedMongoOptions, startEmbeddedMongo } from './index.js';
import type { Logger } from './types.js';

/** The embedded server inside a worker thread: started from `workerData`, stopped on 'close'. */
const port = parentPort;
if (!port) throw new Error('worker.ts runs in a worker thread');

const forward =
  (level: keyof Logger) =>
  (obj: object, msg?: string): void => {
    const err = (obj as { err?: Error }).err;
    const safe = err ? { ...obj, err: { message: err.message, stack: err.stack } } : obj;
    port.postMessage({ log: level, obj: safe, msg });
  };
const logger: Logger = { info: forward('info'), warn: forward('warn'), error: forward('error') };

try {
  const server = await startEmbeddedMongo({ ...(workerData as EmbeddedMongoOptions), logger });
  port.on('message', (message) => {
    if (message === 'close')
      void server.close().then(
        () => port.postMessage({ closed: true }),
        (error: Error) => port.postMessage({ closed: true, error: error.message }),
      );
  });
  port.postMessage({ uri: server.uri, port: server.port });
} catch (error) {
  port.postMessage({ failed: (error as Error).message, name: (error as Error).name });
}

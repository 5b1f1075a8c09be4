import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { EmbeddedMongo, EmbeddedMongoOptions } from './index.js';
import { DataDirLockedError } from './lock.js';
import { silentLogger } from './types.js';

/**
 * The worker: its compiled JavaScript file, or under tsx (tests, `npm run dev`) a small script
 * that registers tsx in the worker first, then loads the TypeScript file.
 */
function newWorker(workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./worker.js', import.meta.url), { workerData });
  const source = JSON.stringify(new URL('./worker.ts', import.meta.url).href);
  const code = `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); });`;
  return new Worker(code, { eval: true, workerData });
}

/**
 * Starts the embedded server in a worker thread of its own, so no query can hold up the event
 * loop of this one (the service's HTTP). Same options and result as `startEmbeddedMongo`.
 */
export async function startEmbeddedMongoInWorker(
  options: EmbeddedMongoOptions,
): Promise<EmbeddedMongo> {
  const { logger = silentLogger, ...data } = options;
  const worker = newWorker(data);
  const started = new Promise<{ uri: string; port: number }>((resolve, reject) => {
    worker.on('message', (message) => {
      if (message.log) logger[message.log as 'info'](message.obj, message.msg);
      else if (message.uri) resolve(message);
      else if (message.failed)
        reject(
          message.name === 'DataDirLockedError'
            ? new DataDirLockedError(message.failed)
            : new Error(message.failed),
        );
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the database worker exited (${code})`)));
  });
  let ready: { uri: string; port: number };
  try {
    ready = await started;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    uri: ready.uri,
    port: ready.port,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) =>
          worker.on('message', (message) => message.closed && resolve()),
        );
        worker.postMessage('close');
        await closed;
        const exited = once(worker, 'exit');
        await worker.terminate();
        await exited.catch(() => undefined);
      })()),
  };
}

import type { TestApp } from './app.js';
import { runCli } from './processes.js';

/** `publish-gateway token create ...` against the test app's database, as an operator runs it. */
export async function tokenCreate(app: TestApp, ...args: string[]) {
  const { code, stdout, stderr } = await runCli(['token', 'create', ...args], {
    MONGODB_URI: app.mongo.uri,
    MONGODB_DB: app.db.db.databaseName,
    LOG_LEVEL: 'silent',
  });
  return { code, token: stdout.trim(), stderr };
}

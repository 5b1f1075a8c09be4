import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { exportDump, importDump } from '../db/dump.js';
import { startEmbeddedMongo } from '../db/embedded/index.js';
import { embeddedDataDir } from '../db/embedded/location.js';
import { createLogger } from '../logger.js';
import { connectForCommand } from './connect.js';
import { closeOnSignals } from './signals.js';
import { UsageError } from './usage-error.js';

const usage = `Usage: publish-gateway db [--port 27017] [--host 127.0.0.1] [--data-dir <dir>]
       publish-gateway db export --out <dir>
       publish-gateway db import <dir>

Runs the embedded MongoDB-compatible server on its own, for mongosh, tools or another
service. --data-dir defaults to $DATA_DIR/db (./data/db). Clients must authenticate
(SCRAM-SHA-256): the credentials are generated on first start into <data-dir>/credentials.json,
and <data-dir>/endpoint.json (0600) holds the full connection string while the server runs.
SIGINT or SIGTERM closes the data files and exits.

export writes the database (MONGODB_URI, or the embedded one under DATA_DIR) in mongodump's
layout, <dir>/<db>/<collection>.bson and .metadata.json, which mongorestore loads; import
reads that layout (a mongodump of another deployment too), indexes included.
`;

/** `db export --out DIR` and `db import DIR`, through the database one-off commands use. */
async function dumpCommand(argv: string[]): Promise<void> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { out: { type: 'string' } },
    allowPositionals: true,
  });
  const dir = action === 'export' ? values.out : positionals[0];
  if (!dir) throw new UsageError(usage);
  const { db, close } = await connectForCommand(loadConfig());
  try {
    const summary =
      action === 'export' ? await exportDump(db.client, dir) : await importDump(db.client, dir);
    process.stdout.write(`${JSON.stringify({ [action as string]: dir, ...summary })}\n`);
  } finally {
    await close();
  }
}

export async function dbCommand(argv: string[]): Promise<void> {
  if (argv[0] === 'export' || argv[0] === 'import') return dumpCommand(argv);
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '27017' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port must be a port number.\n${usage}`);
  const dataDir = values['data-dir'] ?? embeddedDataDir(loadConfig().dataDir);

  const logger = createLogger('info');
  const server = await startEmbeddedMongo({
    host: values.host,
    port,
    dataDir,
    logger,
    authenticate: true,
    endpointFile: join(dataDir, 'endpoint.json'),
  });
  closeOnSignals(logger, server.close);
}

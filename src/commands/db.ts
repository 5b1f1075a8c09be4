import { join } from 'node:path';
import { loadConfig } from '../config.js';
import type { DumpProgress } from '../db/dump.js';
import { embeddedDataDir } from '../db/embedded/location.js';
import { createLogger } from '../logger.js';
import { closeOnSignals } from './signals.js';
import { parseCommandArgs, usageError } from './usage-error.js';

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
reads that layout (a mongodump of another deployment too), indexes included. Collection names
become file names as mongodump writes them (percent-encoded, a long one shortened with a hash
and read back from its metadata), so any name round-trips and no file lands outside <dir>;
import refuses, before writing anything, a dump it cannot read safely: a link, a database
directory MongoDB would not name, a file whose metadata names another collection.
`;

/** `db export --out DIR` and `db import DIR`, through the database one-off commands use. */
async function dumpCommand(action: 'export' | 'import', argv: string[]): Promise<void> {
  let dir: string | undefined;
  if (action === 'export') {
    const args = parseCommandArgs(argv, usage, { out: { type: 'string' } }, { positionals: false });
    if (!args) return;
    dir = args.values.out;
    if (!dir) throw usageError('--out is required.', usage);
  } else {
    const args = parseCommandArgs(argv, usage, {});
    if (!args) return;
    if (args.positionals.length !== 1) throw usageError('Name the dump directory.', usage);
    dir = args.positionals[0] as string;
  }
  // Loaded once the arguments are read, so that --help answers at once.
  const [{ exportDump, importDump }, { connectForCommand }] = await Promise.all([
    import('../db/dump.js'),
    import('./connect.js'),
  ]);
  // No limit on a reply: an import's createIndexes answers once a million documents are indexed.
  const { db, close } = await connectForCommand(loadConfig(), { socketTimeoutMS: 0 });
  try {
    // A long run says where it is every few seconds, on stderr (stdout carries the summary).
    const progress = ({ ns, documents, total }: DumpProgress) =>
      process.stderr.write(
        `${action}: ${ns}: ${documents.toLocaleString('en')}${total === undefined ? '' : ` of ${total.toLocaleString('en')}`} documents\n`,
      );
    const summary =
      action === 'export'
        ? await exportDump(db.client, dir, progress)
        : await importDump(db.client, dir, progress);
    process.stdout.write(`${JSON.stringify({ [action]: dir, ...summary })}\n`);
  } finally {
    await close();
  }
}

export async function dbCommand(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === 'export' || first === 'import') return dumpCommand(first, rest);
  const args = parseCommandArgs(
    argv,
    usage,
    {
      port: { type: 'string', default: '27017' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
    },
    { positionals: false },
  );
  if (!args) return;
  const { values } = args;
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw usageError('--port must be a port number.', usage);
  const dataDir = values['data-dir'] ?? embeddedDataDir(loadConfig().dataDir);

  const logger = createLogger('info');
  const { startEmbeddedMongo } = await import('../db/embedded/index.js');
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

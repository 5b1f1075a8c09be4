import { loadConfig } from '../config.js';
import { CommandRefused, parseCommandArgs, usageError } from './usage-error.js';

const usage = `Usage: publish-gateway work remove <code> --reason <text>
       publish-gateway work list-removed
       publish-gateway work restore <code>
       publish-gateway work reports

remove takes a work down (clock~<code> for a melody): it leaves every list, search and feed on
every instance within a second, its page and reads answer 410 Gone, and publishing the same
source again is refused; the reason stays with the operators. list-removed shows the removed
works; restore brings one back whole. reports lists the works visitors reported, the most first.
`;

const ACTIONS = ['remove', 'list-removed', 'restore', 'reports'] as const;
type Action = (typeof ACTIONS)[number];

export async function workCommand(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, usage, { reason: { type: 'string' } });
  if (!args) return;
  const [action, code, ...extra] = args.positionals;
  if (!ACTIONS.includes(action as Action))
    throw usageError(
      action === undefined ? 'Name a work command.' : `Unknown work command: ${action}.`,
      usage,
    );
  const needsCode = action === 'remove' || action === 'restore';
  if (needsCode && !code) throw usageError('Name the work by its code.', usage);
  if (extra.length > 0 || (!needsCode && code !== undefined))
    throw usageError(`Unexpected argument: ${needsCode ? extra[0] : code}.`, usage);
  const reason = args.values.reason?.trim();
  if (action === 'remove' && !reason) throw usageError('--reason is required.', usage);
  if (action !== 'remove' && args.values.reason !== undefined)
    throw usageError('--reason goes with remove only.', usage);

  // Loaded once the arguments are read, so that --help answers at once.
  const [{ AppError }, takedowns, { openReports }, { connectForCommand }, { createLogger }] =
    await Promise.all([
      import('../app-error.js'),
      import('../operations/takedowns/take-down.js'),
      import('../operations/takedowns/reports.js'),
      import('./connect.js'),
      import('../logger.js'),
    ]);
  const config = loadConfig();
  const { db, close } = await connectForCommand(config);
  // The running instances deliver the work.removed / work.restored event recorded here.
  const events = { publicUrl: config.publicUrl, logger: createLogger(config.logLevel, 2) };
  const refused = (error: unknown) => {
    if (error instanceof AppError || error instanceof takedowns.RestoreConflict)
      throw new CommandRefused(error.message);
    throw error;
  };
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (action === 'remove') {
      const entry = await takedowns
        .takeDown(db, { address: code as string, by: 'operator', reason: reason as string }, events)
        .catch(refused);
      out(`removed ${entry._id} (${entry.kind})`);
    } else if (action === 'restore') {
      const entry = await takedowns.restoreWork(db, code as string, events).catch(refused);
      out(`restored ${entry._id} (${entry.kind})`);
    } else if (action === 'list-removed') {
      for (const entry of await takedowns.listRemovedWorks(db))
        out(
          `${entry._id}  ${entry.kind}  ${entry.when.toISOString()}  ${entry.by === 'author' ? 'deleted by its author' : 'removed by an operator'}  ${entry.reason}`,
        );
    } else {
      for (const work of await openReports(db)) {
        const reasons = Object.entries(work.reasons)
          .map(([reason, count]) => `${reason} ${count}`)
          .join(', ');
        out(
          `${work.count}  ${work.address}  ${work.kind}  latest ${work.latest.toISOString()}  ${reasons}`,
        );
        for (const details of work.details) out(`    ${details.replace(/\s+/g, ' ')}`);
      }
    }
  } finally {
    await close();
  }
}

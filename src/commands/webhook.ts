import { loadConfig } from '../config.js';
import { CommandRefused, parseCommandArgs, usageError } from './usage-error.js';

const usage = `Usage: publish-gateway webhook add --url <url> [--events work.published,...] [--author @handle]
       publish-gateway webhook list
       publish-gateway webhook remove <id>
       publish-gateway webhook rotate <id>
       publish-gateway webhook enable <id>
       publish-gateway webhook deliveries <id>
       publish-gateway webhook replay <delivery-id>

add registers a hook (every event type unless --events names some: work.published,
work.removed for a take-down, work.restored; every author's works unless --author names one)
and prints its signing secret (whsec_..., shown only this once); running instances take it up
within a second. Deliveries are signed by the Standard Webhooks
specification (webhook-id, webhook-timestamp, webhook-signature). rotate prints a new secret;
the old one still signs beside it for 24 hours. A hook whose deliveries kept failing is disabled
(list says why); enable turns it on again. deliveries shows a hook's latest deliveries and
every attempt; replay sends one again, with the same webhook-id.
`;

const ACTIONS = ['add', 'list', 'remove', 'rotate', 'enable', 'deliveries', 'replay'] as const;
type Action = (typeof ACTIONS)[number];

export async function webhookCommand(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, usage, {
    url: { type: 'string' },
    events: { type: 'string' },
    author: { type: 'string' },
  });
  if (!args) return;
  const { positionals, values } = args;
  const [action, target] = positionals;
  if (!(ACTIONS as readonly (string | undefined)[]).includes(action))
    throw usageError(
      action === undefined ? 'Name a webhook command.' : `Unknown webhook command: ${action}.`,
      usage,
    );
  if (action === 'add' && !values.url) throw usageError('--url is required.', usage);
  if (action !== 'add' && action !== 'list' && !target)
    throw usageError(`Name the ${action === 'replay' ? 'delivery' : 'hook'}.`, usage);
  // Loaded once the arguments are read, so that --help answers at once.
  const [hooks, { eventCollections }, { connectForCommand }] = await Promise.all([
    import('../operations/events/webhooks/hooks.js'),
    import('../operations/events/collections.js'),
    import('./connect.js'),
  ]);
  const { db, close } = await connectForCommand(loadConfig());
  const collections = eventCollections(db.db);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const missing = (what: string) => {
    process.stderr.write(`No ${what} ${target}.\n`);
    process.exitCode = 1;
  };
  try {
    switch (action as Action) {
      case 'add': {
        const hook = await hooks.addHook(collections, {
          url: values.url as string,
          ...(values.events !== undefined ? { events: values.events } : {}),
          ...(values.author !== undefined ? { author: values.author } : {}),
        });
        out(hook.secret);
        process.stderr.write(
          `Hook ${hook._id} for ${hook.events.join(', ')}${hook.author ? ` by @${hook.author}` : ''} to ${hook.url}. Its secret is shown only this once.\n`,
        );
        break;
      }
      case 'list':
        for (const hook of await hooks.listHooks(collections))
          out(
            `${hook._id}  ${hook.url}  ${hook.events.join(',')}  ${hook.author ? `@${hook.author}` : 'everyone'}  ${
              hook.disabled
                ? `disabled ${hook.disabled.at.toISOString()}: ${hook.disabled.reason}`
                : 'active'
            }`,
          );
        break;
      case 'remove':
        if (await hooks.removeHook(collections, target as string)) out(`removed ${target}`);
        else missing('hook');
        break;
      case 'rotate': {
        const secret = await hooks.rotateHook(collections, target as string);
        if (secret) out(secret);
        else missing('hook');
        break;
      }
      case 'enable':
        if (await hooks.enableHook(collections, target as string)) out(`enabled ${target}`);
        else missing('hook');
        break;
      case 'deliveries':
        for (const delivery of await hooks.listDeliveries(collections, target as string)) {
          out(
            `${delivery._id}  ${delivery.type}  ${delivery.state}  ${delivery.attempts} attempt(s)`,
          );
          for (const attempt of delivery.log)
            out(
              `    ${attempt.at.toISOString()}  ${attempt.status ?? '-'}  ${attempt.ms} ms${attempt.error ? `  ${attempt.error}` : ''}`,
            );
        }
        break;
      case 'replay': {
        const replayed = await hooks
          .replayDelivery(collections, target as string)
          .catch((error: unknown) => {
            if (error instanceof hooks.WebhookInputError) throw new CommandRefused(error.message);
            throw error;
          });
        if (replayed) out(`replaying ${target} to ${replayed.hook}`);
        else missing('delivery');
        break;
      }
    }
  } catch (error) {
    if (error instanceof hooks.WebhookInputError) throw new CommandRefused(error.message);
    throw error;
  } finally {
    await close();
  }
}

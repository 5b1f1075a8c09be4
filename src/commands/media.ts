import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.js';
import { checkMediaSlug, MEDIA_EXTS, type MediaExt } from '../domain/media.js';
import { parseCommandArgs, UsageError, usageError } from './usage-error.js';

const usage = `Usage: publish-gateway media put <file> --slug <yyyy/mm/dd/name.ext>

Places the file in storage (STORAGE: the local directory or the S3 bucket) under the slug;
register it then with POST /api/track-media.
`;

export async function mediaCommand(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, usage, { slug: { type: 'string' } });
  if (!args) return;
  const [action, file, ...extra] = args.positionals;
  const slug = args.values.slug;
  if (action !== 'put')
    throw usageError(
      action === undefined ? 'Name a media command.' : `Unknown media command: ${action}.`,
      usage,
    );
  if (!file || extra.length > 0) throw usageError('Name one file.', usage);
  if (!slug) throw usageError('--slug is required.', usage);
  const ext = slug.slice(slug.lastIndexOf('.') + 1) as MediaExt;
  if (!MEDIA_EXTS.includes(ext))
    throw new UsageError(
      `The slug must end in one of: ${MEDIA_EXTS.map((e) => `.${e}`).join(', ')}`,
    );
  const check = checkMediaSlug(slug, ext);
  if (!check.ok) throw new UsageError(check.message);

  // Loaded once the arguments are read, so that --help answers at once.
  const { contentTypeFor, createStorage } = await import('../storage/index.js');
  const storage = createStorage(loadConfig());
  await storage.put(slug, await readFile(file), contentTypeFor(slug));
  process.stdout.write(
    `stored ${slug} in ${storage.location}; register it with POST /api/track-media {"slug":"${slug}","ext":"${ext}"}\n`,
  );
}

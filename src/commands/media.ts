import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { checkMediaSlug, MEDIA_EXTS, type MediaExt } from '../domain/media.js';
import { contentTypeFor, createStorage } from '../storage/index.js';
import { UsageError } from './usage-error.js';

const usage = 'Usage: publish-gateway media put <file> --slug <yyyy/mm/dd/name.ext>';

export async function mediaCommand(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { slug: { type: 'string' } },
  });
  const [action, file] = positionals;
  const slug = values.slug;
  if (action !== 'put' || !file || !slug) throw new UsageError(usage);
  const ext = slug.slice(slug.lastIndexOf('.') + 1) as MediaExt;
  if (!MEDIA_EXTS.includes(ext))
    throw new UsageError(
      `The slug must end in one of: ${MEDIA_EXTS.map((e) => `.${e}`).join(', ')}`,
    );
  const check = checkMediaSlug(slug, ext);
  if (!check.ok) throw new UsageError(check.message);

  const storage = createStorage(loadConfig());
  await storage.put(slug, await readFile(file), contentTypeFor(slug));
  process.stdout.write(
    `stored ${slug} in ${storage.location}; register it with POST /api/track-media {"slug":"${slug}","ext":"${ext}"}\n`,
  );
}

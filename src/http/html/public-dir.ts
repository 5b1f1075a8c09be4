import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `public/` beside package.json, found the same way from src/ (tests, tsx) and from dist/src/ (built). */
function findPublicDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('cannot find the package root (package.json) above the pages module');
    dir = parent;
  }
  return join(dir, 'public');
}

export const publicDir = findPublicDir();

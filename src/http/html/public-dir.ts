import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (where package.json is), found the same way from src/ (tests, tsx) and from dist/src/ (built). */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('cannot find the package root (package.json) above the pages module');
    dir = parent;
  }
  return dir;
}

const packageRoot = findPackageRoot();

/** Hand-written static assets. */
export const publicDir = join(packageRoot, 'public');

/** Browser bundles built by `npm run build:client` (src/pages/client/*.ts). */
export const clientBundleDir = join(packageRoot, 'dist', 'public');

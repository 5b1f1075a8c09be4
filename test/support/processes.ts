import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BUILT_CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

/** Tests that run `publish-gateway` use the built bin, as operators do; `npm test` builds first. */
export function requireBuiltCli(): string {
  if (!existsSync(BUILT_CLI)) {
    throw new Error(
      `${BUILT_CLI} is missing: build first with "npm run build" ("npm test" builds before running vitest).`,
    );
  }
  return BUILT_CLI;
}

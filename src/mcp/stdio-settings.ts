import { z } from 'zod';
import { assistantPackage } from '../operations/assistant-catalog.js';

const blankAsMissing = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const schema = z.object({
  SERVICE_URL: z.preprocess(
    blankAsMissing,
    z
      .url({ protocol: /^https?$/, error: 'SERVICE_URL must be an http(s) URL.' })
      .default(assistantPackage.defaultServiceUrl),
  ),
  SERVICE_TOKEN: z.preprocess(blankAsMissing, z.string().trim().optional()),
  SERVICE_TIMEOUT_MS: z.preprocess(
    blankAsMissing,
    z.coerce
      .number({ error: 'SERVICE_TIMEOUT_MS must be a number of milliseconds.' })
      .int()
      .positive()
      .default(assistantPackage.defaultTimeoutMs),
  ),
});

export interface StdioSettings {
  serviceUrl: string;
  token: string | undefined;
  timeoutMs: number;
}

/** The stdio server's environment: SERVICE_URL, SERVICE_TOKEN (optional) and SERVICE_TIMEOUT_MS. */
export function readStdioSettings(env: Record<string, string | undefined>): StdioSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join(' '));
  return {
    serviceUrl: parsed.data.SERVICE_URL.replace(/\/+$/, ''),
    token: parsed.data.SERVICE_TOKEN,
    timeoutMs: parsed.data.SERVICE_TIMEOUT_MS,
  };
}

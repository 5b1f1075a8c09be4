import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './domain/trust-proxy.js';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .optional()
    .transform((value) =>
      value === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(value),
    );

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Every default, written once: the schema below applies them; --help and the README show them. */
export const configDefaults = {
  PORT: 4000,
  HOST: '127.0.0.1',
  /** Not a fixed value: derived from the port the service listens on. */
  PUBLIC_URL: 'http://localhost:<PORT>',
  MONGODB_DB: 'aesthetic',
  CHAT_INDEXES: true,
  DATA_DIR: './data',
  LOG_LEVEL: 'info',
  STORAGE: 'fs',
  S3_REGION: 'us-east-1',
  S3_FORCE_PATH_STYLE: false,
  RATE_LIMIT_PUBLISH: 60,
  RATE_LIMIT_WINDOW_SECONDS: 60,
  RATE_LIMIT_STORE: 'memory',
  GRAPHIQL: true,
  REQUEST_TIMEOUT_MS: 15_000,
  CHAT_SEARCH_CONCURRENCY: 4,
  CHAT_LIVE_SOURCE: 'auto',
  CHAT_POLL_INTERVAL_MS: 100,
  SUBSCRIBERS_MAX: 2_000,
  SUBSCRIBERS_PER_CLIENT: 10,
  EVENTS_POLL_INTERVAL_MS: 200,
  WEBHOOK_ALLOW_PRIVATE: false,
  WEBHOOK_RETRY_DELAYS: '5,300,1800,7200,18000,36000,36000',
} as const;

/** Every environment variable the service reads and its meaning (its default is in configDefaults). */
export const configVariables = {
  PORT: 'HTTP port',
  HOST: 'interface to listen on',
  PUBLIC_URL: 'base URL of published links',
  MONGODB_URI:
    'MongoDB connection string; absent: the embedded server, persisted under DATA_DIR/db',
  MONGODB_DB: 'database name',
  CHAT_INDEXES:
    'create the chat indexes ((when, _id) and per user) on chat-system and chat-clock; false when another system owns them',
  DATA_DIR: 'directory for the embedded database and filesystem storage',
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent',
  STORAGE: 'object storage: fs (under DATA_DIR/storage) or s3',
  S3_ENDPOINT: 'S3-compatible endpoint URL (STORAGE=s3)',
  S3_BUCKET: 'bucket name (required with STORAGE=s3)',
  S3_REGION: 'region',
  S3_ACCESS_KEY_ID: 'access key (STORAGE=s3)',
  S3_SECRET_ACCESS_KEY: 'secret key (STORAGE=s3)',
  S3_FORCE_PATH_STYLE: 'path-style addressing, needed by most S3-compatible servers',
  AUTH_ISSUER: 'OIDC issuer whose JWTs are accepted as bearer tokens (optional)',
  AUTH_AUDIENCE: 'expected JWT audience (with AUTH_ISSUER)',
  AUTH_JWKS_URL: 'JWKS URL for JWT signature keys (required with AUTH_ISSUER)',
  AUTH_CLIENT_ID:
    'OAuth client id of this site at AUTH_ISSUER: members sign in on the site (authorization code with PKCE)',
  AUTH_CLIENT_SECRET: 'that client\u2019s secret (with AUTH_CLIENT_ID)',
  RATE_LIMIT_PUBLISH: 'publishes allowed per client per window',
  RATE_LIMIT_WINDOW_SECONDS: 'rate-limit window in seconds',
  RATE_LIMIT_STORE: 'memory (one instance) or mongo (instances sharing a database)',
  GRAPHIQL: 'serve the GraphiQL playground at /graphql for browsers',
  REQUEST_TIMEOUT_MS: 'longest a client may take to send a whole request, headers and body',
  TRUST_PROXY:
    'proxies whose X-Forwarded-For is believed: addresses and CIDRs (comma-separated; also loopback, linklocal, uniquelocal) or a hop count; unset: none',
  METRICS_TOKEN:
    'when set, GET /metrics requires Authorization: Bearer <this value>; unset: public',
  CHAT_SEARCH_CONCURRENCY:
    'uncached chat searches run at once per instance; more wait up to 2 s, then 503 with Retry-After',
  CHAT_LIVE_SOURCE:
    'live chat source: auto (change streams when the database has them, else polling) or polling',
  CHAT_POLL_INTERVAL_MS:
    'live chat without change streams (a standalone mongod): how often new messages are read',
  SUBSCRIBERS_MAX: 'live chat streams open at once in this process; more answer 503',
  SUBSCRIBERS_PER_CLIENT: 'live chat streams one client may hold open; more answer 429',
  MCP_ALLOWED_ORIGINS:
    'browser origins allowed at /mcp besides the public URL and loopback, comma-separated',
  EVENTS_POLL_INTERVAL_MS:
    'how often each instance reads new work events for the works stream (webhooks are sent at once from the publishing instance; their idle look for leftovers is every second, or this if longer)',
  WEBHOOK_ALLOW_PRIVATE:
    'deliver webhooks to loopback, private, link-local and metadata addresses (tests, private networks)',
  WEBHOOK_RETRY_DELAYS:
    'seconds before each retry of a failed webhook delivery (comma-separated, each with 20% jitter); after the last, the hook is disabled',
} as const;

export type ConfigVariable = keyof typeof configVariables;

/** PUBLIC_URL when none is given: follows the port the service listens on. */
export const defaultPublicUrl = (port: number) =>
  configDefaults.PUBLIC_URL.replace('<PORT>', String(port));

/** The default of a variable as --help and the README show it, or undefined when it has none. */
export function shownDefault(name: ConfigVariable): string | undefined {
  const value = (configDefaults as Partial<Record<ConfigVariable, string | number | boolean>>)[
    name
  ];
  return value === undefined ? undefined : String(value);
}

/** `https://a.example, http://b.example:8080` -> their origins; anything else is a configuration error. */
const originList = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const origins: string[] = [];
    for (const item of (text ?? '').split(',').map((part) => part.trim())) {
      if (item === '') continue;
      try {
        const url = new URL(item);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(item);
        origins.push(url.origin);
      } catch {
        ctx.addIssue({ code: 'custom', message: `${item} is not an http(s) origin` });
      }
    }
    return origins;
  });

/** `5,300,1800` -> [5000, 300000, 1800000]: durations in seconds, at least one, each >= 0. */
const secondsList = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      const items = (text?.trim() || fallback).split(',').map((part) => Number(part.trim()));
      if (items.some((n) => !Number.isFinite(n) || n < 0)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be seconds (numbers >= 0), comma-separated',
        });
        return z.NEVER;
      }
      return items.map((seconds) => Math.round(seconds * 1000));
    });

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(configDefaults.PORT),
    HOST: z.string().trim().min(1).default(configDefaults.HOST),
    PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    MONGODB_URI: optionalText.pipe(
      z
        .string()
        .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
        .optional(),
    ),
    MONGODB_DB: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,63}$/, 'letters, digits, _ and - only')
      .default(configDefaults.MONGODB_DB),
    CHAT_INDEXES: flag(configDefaults.CHAT_INDEXES),
    DATA_DIR: z.string().trim().min(1).default(configDefaults.DATA_DIR),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default(configDefaults.LOG_LEVEL),
    STORAGE: z.enum(['fs', 's3']).default(configDefaults.STORAGE),
    S3_ENDPOINT: optionalText.pipe(z.url().optional()),
    S3_BUCKET: optionalText,
    S3_REGION: z.string().trim().min(1).default(configDefaults.S3_REGION),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: flag(configDefaults.S3_FORCE_PATH_STYLE),
    AUTH_ISSUER: optionalText,
    AUTH_AUDIENCE: optionalText,
    AUTH_JWKS_URL: optionalText.pipe(z.url().optional()),
    AUTH_CLIENT_ID: optionalText,
    AUTH_CLIENT_SECRET: optionalText,
    RATE_LIMIT_PUBLISH: positiveInt(configDefaults.RATE_LIMIT_PUBLISH),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(configDefaults.RATE_LIMIT_WINDOW_SECONDS),
    RATE_LIMIT_STORE: z.enum(['memory', 'mongo']).default(configDefaults.RATE_LIMIT_STORE),
    GRAPHIQL: flag(configDefaults.GRAPHIQL),
    REQUEST_TIMEOUT_MS: positiveInt(configDefaults.REQUEST_TIMEOUT_MS),
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, ctx): TrustProxy => {
        const parsed = parseTrustProxy(value);
        if ('error' in parsed) {
          ctx.addIssue({ code: 'custom', message: parsed.error });
          return z.NEVER;
        }
        return parsed;
      }),
    METRICS_TOKEN: optionalText,
    CHAT_SEARCH_CONCURRENCY: positiveInt(configDefaults.CHAT_SEARCH_CONCURRENCY),
    CHAT_LIVE_SOURCE: z.enum(['auto', 'polling']).default(configDefaults.CHAT_LIVE_SOURCE),
    CHAT_POLL_INTERVAL_MS: positiveInt(configDefaults.CHAT_POLL_INTERVAL_MS),
    SUBSCRIBERS_MAX: positiveInt(configDefaults.SUBSCRIBERS_MAX),
    SUBSCRIBERS_PER_CLIENT: positiveInt(configDefaults.SUBSCRIBERS_PER_CLIENT),
    MCP_ALLOWED_ORIGINS: originList,
    EVENTS_POLL_INTERVAL_MS: positiveInt(configDefaults.EVENTS_POLL_INTERVAL_MS),
    WEBHOOK_ALLOW_PRIVATE: flag(configDefaults.WEBHOOK_ALLOW_PRIVATE),
    WEBHOOK_RETRY_DELAYS: secondsList(configDefaults.WEBHOOK_RETRY_DELAYS),
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE=s3' });
    }
    if (!env.AUTH_ISSUER && (env.AUTH_AUDIENCE || env.AUTH_JWKS_URL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_ISSUER'],
        message: 'is required with AUTH_AUDIENCE or AUTH_JWKS_URL',
      });
    }
    if (
      Boolean(env.AUTH_CLIENT_ID) !== Boolean(env.AUTH_CLIENT_SECRET) ||
      (env.AUTH_CLIENT_ID && !env.AUTH_ISSUER)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_CLIENT_ID'],
        message: 'AUTH_CLIENT_ID and AUTH_CLIENT_SECRET go together, with AUTH_ISSUER',
      });
    }
    if (env.AUTH_ISSUER && !env.AUTH_JWKS_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_JWKS_URL'],
        message: 'is required when AUTH_ISSUER is set',
      });
    }
  });

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const publicUrl = (values.PUBLIC_URL ?? defaultPublicUrl(values.PORT)).replace(/\/+$/, '');
  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    /** No PUBLIC_URL was given: the service derives it from the port it actually listens on. */
    publicUrlFollowsPort: values.PUBLIC_URL === undefined,
    mongodbUri: values.MONGODB_URI,
    mongodbDb: values.MONGODB_DB,
    chatIndexes: values.CHAT_INDEXES,
    dataDir: values.DATA_DIR,
    logLevel: values.LOG_LEVEL,
    storage:
      values.STORAGE === 's3'
        ? {
            kind: 's3' as const,
            endpoint: values.S3_ENDPOINT,
            bucket: values.S3_BUCKET as string,
            region: values.S3_REGION,
            accessKeyId: values.S3_ACCESS_KEY_ID,
            secretAccessKey: values.S3_SECRET_ACCESS_KEY,
            forcePathStyle: values.S3_FORCE_PATH_STYLE,
          }
        : { kind: 'fs' as const },
    auth: {
      issuer: values.AUTH_ISSUER,
      audience: values.AUTH_AUDIENCE,
      jwksUrl: values.AUTH_JWKS_URL,
      /** Sign-in on the site (src/auth/sign-in.ts): only with both. */
      client:
        values.AUTH_CLIENT_ID && values.AUTH_CLIENT_SECRET
          ? { id: values.AUTH_CLIENT_ID, secret: values.AUTH_CLIENT_SECRET }
          : undefined,
    },
    rateLimit: {
      publish: values.RATE_LIMIT_PUBLISH,
      windowSeconds: values.RATE_LIMIT_WINDOW_SECONDS,
      store: values.RATE_LIMIT_STORE,
    },
    graphiql: values.GRAPHIQL,
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
    trustProxy: values.TRUST_PROXY,
    metricsToken: values.METRICS_TOKEN,
    chatSearchConcurrency: values.CHAT_SEARCH_CONCURRENCY,
    liveChat: {
      source: values.CHAT_LIVE_SOURCE,
      pollIntervalMs: values.CHAT_POLL_INTERVAL_MS,
      subscribersMax: values.SUBSCRIBERS_MAX,
      subscribersPerClient: values.SUBSCRIBERS_PER_CLIENT,
    },
    mcpAllowedOrigins: values.MCP_ALLOWED_ORIGINS,
    events: {
      pollIntervalMs: values.EVENTS_POLL_INTERVAL_MS,
      webhookAllowPrivate: values.WEBHOOK_ALLOW_PRIVATE,
      webhookRetryDelaysMs: values.WEBHOOK_RETRY_DELAYS,
    },
  };
}

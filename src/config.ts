import { z } from 'zod';

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

/** Every environment variable the service reads, with its default and meaning (for --help and the README). */
export const configVariables = {
  PORT: 'HTTP port (4000)',
  HOST: 'interface to listen on (127.0.0.1)',
  PUBLIC_URL: 'base URL of published links (http://localhost:<PORT>)',
  MONGODB_URI:
    'MongoDB connection string; absent: the embedded server, persisted under DATA_DIR/db',
  MONGODB_DB: 'database name (aesthetic)',
  CHAT_INDEXES:
    'create the chat indexes ((when, _id) and per user) on chat-system and chat-clock (true); false when another system owns them',
  DATA_DIR: 'directory for the embedded database and filesystem storage (./data)',
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent (info)',
  STORAGE: 'object storage: fs (default, under DATA_DIR/storage) or s3',
  S3_ENDPOINT: 'S3-compatible endpoint URL (STORAGE=s3)',
  S3_BUCKET: 'bucket name (STORAGE=s3)',
  S3_REGION: 'region (us-east-1)',
  S3_ACCESS_KEY_ID: 'access key (STORAGE=s3)',
  S3_SECRET_ACCESS_KEY: 'secret key (STORAGE=s3)',
  S3_FORCE_PATH_STYLE: 'path-style addressing, needed by most S3-compatible servers (false)',
  AUTH_ISSUER: 'OIDC issuer whose JWTs are accepted as bearer tokens (optional)',
  AUTH_AUDIENCE: 'expected JWT audience (with AUTH_ISSUER)',
  AUTH_JWKS_URL: 'JWKS URL for JWT signature keys (with AUTH_ISSUER)',
  RATE_LIMIT_PUBLISH: 'publishes allowed per client per window (60)',
  RATE_LIMIT_WINDOW_SECONDS: 'rate-limit window in seconds (60)',
  RATE_LIMIT_STORE: 'memory (one instance) or mongo (instances sharing a database) (memory)',
  GRAPHIQL: 'serve the GraphiQL playground at /graphql for browsers (true)',
  REQUEST_TIMEOUT_MS: 'longest a client may take to send a whole request, headers and body (15000)',
} as const;

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    HOST: z.string().trim().min(1).default('127.0.0.1'),
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
      .default('aesthetic'),
    CHAT_INDEXES: flag(true),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    STORAGE: z.enum(['fs', 's3']).default('fs'),
    S3_ENDPOINT: optionalText.pipe(z.url().optional()),
    S3_BUCKET: optionalText,
    S3_REGION: z.string().trim().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: flag(false),
    AUTH_ISSUER: optionalText,
    AUTH_AUDIENCE: optionalText,
    AUTH_JWKS_URL: optionalText.pipe(z.url().optional()),
    RATE_LIMIT_PUBLISH: positiveInt(60),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
    RATE_LIMIT_STORE: z.enum(['memory', 'mongo']).default('memory'),
    GRAPHIQL: flag(true),
    REQUEST_TIMEOUT_MS: positiveInt(15_000),
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
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
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
    },
    rateLimit: {
      publish: values.RATE_LIMIT_PUBLISH,
      windowSeconds: values.RATE_LIMIT_WINDOW_SECONDS,
      store: values.RATE_LIMIT_STORE,
    },
    graphiql: values.GRAPHIQL,
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
  };
}

import bytes from 'bytes';
import ms from 'ms';
import { z } from 'zod';

const url = (name: string) =>
  z
    .url({ error: `${name} must be an absolute http(s) URL` })
    .refine((u) => /^https?:\/\//.test(u), {
      error: `${name} must start with http:// or https://`,
    });

const wholeNumber = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .nonnegative({ error: `${name} must be 0 or more` });

/** A size such as `5GB`, `500MB` or a number of bytes. */
const size = (name: string) =>
  z.string().transform((text, ctx) => {
    const n = bytes.parse(text);
    if (n === null || !Number.isFinite(n) || n <= 0) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a size such as 5GB or 500MB` });
      return z.NEVER;
    }
    return n;
  });

/** A duration such as `24h`, `30m`, `7d`. */
const duration = (name: string) =>
  z.string().transform((text, ctx) => {
    const n = /^\d+$/.test(text) ? Number.NaN : ms(text as ms.StringValue);
    if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a duration such as 24h, 30m or 7d`,
      });
      return z.NEVER;
    }
    return n;
  });

/**
 * What the server enforces, resolved: the rate limits, the uploads' quota and retention, the
 * proxies believed. `createServerApp` takes them as they are; the environment's defaults are
 * {@link DEFAULT_LIMITS} (the one place they are written).
 */
export interface ServerLimits {
  /** New tasks per minute per key through /api/v1; 0 turns it off. */
  createsPerMinute: number;
  uploads: {
    /** Uploads per minute per client address; 0 turns it off. */
    perMinute: number;
    /** Total size of stored uploads before 507. */
    quotaBytes: number;
    /** How long an upload no task uses is kept. */
    retentionMs: number;
  };
  /** Load balancer hops in front of Kiln whose X-Forwarded-For is believed (0: none). */
  trustedProxies: number;
}

/** The limits when the environment does not say (README "Configuration"). */
export const DEFAULT_LIMITS: ServerLimits = {
  createsPerMinute: 30,
  uploads: { perMinute: 30, quotaBytes: 5 * 1024 ** 3, retentionMs: 24 * 60 * 60 * 1000 },
  trustedProxies: 0,
};

/** The server's environment (DESIGN.md "Configuration"). Parsed once at start, in main.ts. */
export const ServerEnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int()
    .min(0)
    .max(65535, { error: 'PORT must be between 0 and 65535' })
    .default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  UPSTREAM_URL: url('UPSTREAM_URL')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /** Each vendor's API (issue 34); the vendor's public API when unset. */
  MESHY_API_URL: url('MESHY_API_URL')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  TRIPO_API_URL: url('TRIPO_API_URL')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  FAL_API_URL: url('FAL_API_URL')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /** fal's Platform API (its balance call), beside its queue API. */
  FAL_PLATFORM_API_URL: url('FAL_PLATFORM_API_URL')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  /** New tasks per minute per key through /api/v1 before 429; 0 turns it off. */
  CREATE_RATE_LIMIT: z.coerce
    .number({ error: 'CREATE_RATE_LIMIT must be a whole number' })
    .int({ error: 'CREATE_RATE_LIMIT must be a whole number' })
    .nonnegative({ error: 'CREATE_RATE_LIMIT must be 0 or more' })
    .default(DEFAULT_LIMITS.createsPerMinute),
  PUBLIC_URL: url('PUBLIC_URL')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /** Uploads per minute per client address before 429; 0 turns it off. */
  UPLOAD_RATE_LIMIT: wholeNumber('UPLOAD_RATE_LIMIT').default(DEFAULT_LIMITS.uploads.perMinute),
  /** Total size of stored uploads before 507, e.g. `5GB`, `500MB`. */
  UPLOAD_QUOTA: size('UPLOAD_QUOTA').default(DEFAULT_LIMITS.uploads.quotaBytes),
  /** How long an upload no task uses is kept, e.g. `24h`, `30m`, `7d`. */
  UPLOAD_RETENTION: duration('UPLOAD_RETENTION').default(DEFAULT_LIMITS.uploads.retentionMs),
  /** Load balancer hops in front of Kiln whose X-Forwarded-For is believed (0: none). */
  TRUST_PROXY: wholeNumber('TRUST_PROXY').default(DEFAULT_LIMITS.trustedProxies),

  // Scaled out (docs/deploy.md): a shared PostgreSQL, S3-compatible blobs, one secret.
  /** `postgres://user:password@host:5432/db`: library, credits, idempotency, counters, leases. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, {
      error: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
    })
    .optional(),
  /** The HMAC secret for owner ids; every replica must have the same one. */
  KILN_SECRET: z
    .string()
    .min(32, { error: 'KILN_SECRET must be at least 32 characters' })
    .optional(),
  S3_ENDPOINT: url('S3_ENDPOINT').optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'S3_BUCKET must be a bucket name' })
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['0', '1', 'true', 'false'], { error: 'S3_FORCE_PATH_STYLE must be 1 or 0' })
    .transform((v) => v === '1' || v === 'true')
    .optional(),

  // Operating it (docs/operations.md).
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z
    .string()
    .min(16, { error: 'METRICS_TOKEN must be at least 16 characters' })
    .optional(),
  /** `json` (one object per line) or `pretty`; default: pretty on a terminal, else json. */
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'LOG_FORMAT must be json or pretty' }).optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  /** How long a SIGTERM waits for work in flight before the process exits anyway. */
  SHUTDOWN_GRACE: duration('SHUTDOWN_GRACE').default(30_000),
});
export type ServerEnv = z.infer<typeof ServerEnvSchema>;

/** The limits a parsed environment sets. */
export function limitsOf(env: ServerEnv): ServerLimits {
  return {
    createsPerMinute: env.CREATE_RATE_LIMIT,
    uploads: {
      perMinute: env.UPLOAD_RATE_LIMIT,
      quotaBytes: env.UPLOAD_QUOTA,
      retentionMs: env.UPLOAD_RETENTION,
    },
    trustedProxies: env.TRUST_PROXY,
  };
}

/**
 * The rules between variables, as `VARIABLE: sentence` lines (empty when all is well): the
 * shared database needs the shared secret; S3 needs a bucket, and its key id and secret go
 * together.
 */
export function crossChecks(env: ServerEnv): string[] {
  const problems: string[] = [];
  if (env.DATABASE_URL && !env.KILN_SECRET)
    problems.push(
      'KILN_SECRET: required with DATABASE_URL (every replica must hash keys with the same secret)',
    );
  const s3 = [env.S3_ENDPOINT, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (!env.S3_BUCKET && s3.some((v) => v !== undefined))
    problems.push('S3_BUCKET: required when any other S3_ variable is set');
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined))
    problems.push('S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  return problems;
}

/** Empty strings count as unset, as a shell user expects (`UPSTREAM_URL= npm start`). */
export function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

import { z } from 'zod';

const url = (name: string) =>
  z
    .url({ error: `${name} must be an absolute http(s) URL` })
    .refine((u) => /^https?:\/\//.test(u), {
      error: `${name} must start with http:// or https://`,
    });

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
  DATA_DIR: z.string().min(1).default('./.data'),
  /** New tasks per minute per key through /api/v1 before 429; 0 turns it off. */
  CREATE_RATE_LIMIT: z.coerce
    .number({ error: 'CREATE_RATE_LIMIT must be a whole number' })
    .int({ error: 'CREATE_RATE_LIMIT must be a whole number' })
    .nonnegative({ error: 'CREATE_RATE_LIMIT must be 0 or more' })
    .default(30),
  PUBLIC_URL: url('PUBLIC_URL')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
});
export type ServerEnv = z.infer<typeof ServerEnvSchema>;

/** Empty strings count as unset, as a shell user expects (`UPSTREAM_URL= npm start`). */
export function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

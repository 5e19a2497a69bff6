import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, ServerEnvSchema, crossChecks, limitsOf, withoutEmpty } from './config.ts';

describe('the server configuration', () => {
  it('an empty environment gives the default limits', () => {
    expect(limitsOf(ServerEnvSchema.parse({}))).toEqual(DEFAULT_LIMITS);
  });

  it('reads each limit from its variable', () => {
    const env = ServerEnvSchema.parse({
      CREATE_RATE_LIMIT: '5',
      UPLOAD_RATE_LIMIT: '0',
      UPLOAD_QUOTA: '500MB',
      UPLOAD_RETENTION: '30m',
      TRUST_PROXY: '2',
    });
    expect(limitsOf(env)).toEqual({
      createsPerMinute: 5,
      uploads: { perMinute: 0, quotaBytes: 500 * 1024 ** 2, retentionMs: 30 * 60 * 1000 },
      trustedProxies: 2,
    });
  });

  it('names the variable of a bad value, and of a missing companion', () => {
    const r = ServerEnvSchema.safeParse({ UPLOAD_RETENTION: '12' });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('UPLOAD_RETENTION');
    expect(crossChecks(ServerEnvSchema.parse({ DATABASE_URL: 'postgres://u@h/db' }))[0]).toMatch(
      /^KILN_SECRET:/,
    );
    expect(withoutEmpty({ A: '', B: 'b' })).toEqual({ B: 'b' });
  });
});

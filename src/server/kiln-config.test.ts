import { describe, expect, it } from 'vitest';
import { readKilnConfig } from './kiln-config.ts';

describe('readKilnConfig: the process refuses a bad environment, naming the variable', () => {
  it.each<[string, string, Record<string, string>?]>([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['UPSTREAM_URL', 'not a url'],
    ['UPSTREAM_URL', 'ftp://example.com/v1'],
    ['PUBLIC_URL', 'localhost:8080'],
    ['MOCK_SPEED', 'ludicrous'],
    ['MOCK_KEYS', 'sk_wrong:10'],
    ['MOCK_KEYS', 'tr_demo_kiln:lots'],
    ['CREATE_RATE_LIMIT', '-1'],
    ['UPLOAD_QUOTA', 'plenty'],
    ['UPLOAD_RETENTION', '24'],
    ['UPLOAD_RATE_LIMIT', 'x'],
    ['TRUST_PROXY', '-2'],
    ['MOCK_ALLOW_PRIVATE_FETCH', 'yes please'],
    ['MOCK_DEMO_KEY', 'sk_nope'],
    ['DATABASE_URL', 'mysql://kiln@db/kiln'],
    ['KILN_SECRET', 'too short'],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_BUCKET', 'Not_A_Bucket'],
    ['S3_FORCE_PATH_STYLE', 'maybe'],
    // Rules between variables: the shared database needs the shared secret, S3 a bucket.
    ['KILN_SECRET', '', { DATABASE_URL: 'postgres://kiln@127.0.0.1:1/kiln' }],
    ['S3_BUCKET', '', { S3_ENDPOINT: 'http://127.0.0.1:1' }],
    ['S3_SECRET_ACCESS_KEY', '', { S3_BUCKET: 'kiln', S3_ACCESS_KEY_ID: 'id' }],
    // The demo key must be one MOCK_KEYS grants.
    ['MOCK_DEMO_KEY', 'tr_nobody_key', { MOCK_KEYS: 'tr_alice_key:10' }],
  ])('refuses %s=%s', (name, value, extra) => {
    const read = readKilnConfig({ [name]: value, ...extra });
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problems).toMatch(new RegExp(`(^|\\n)${name}: `));
  });

  it('reads an empty environment as the defaults, with the built-in demo key', () => {
    const read = readKilnConfig({});
    expect(read.ok && { port: read.config.PORT, demo: read.demoKeyName }).toEqual({
      port: 8080,
      demo: 'tr_demo_kiln',
    });
  });

  it('reads an empty value as unset, and publishes the demo key MOCK_DEMO_KEY names', () => {
    const read = readKilnConfig({
      PORT: '',
      MOCK_KEYS: 'tr_alice_key:10,tr_bob_key:5',
      MOCK_DEMO_KEY: 'tr_bob_key',
    });
    expect(read.ok && { port: read.config.PORT, demo: read.demoKeyName }).toEqual({
      port: 8080,
      demo: 'tr_bob_key',
    });
  });
});

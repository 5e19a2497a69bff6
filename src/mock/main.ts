// The mock upstream on its own: `npm run mock` serves it at http://HOST:PORT/v1.
import { keepConnectionsOpen } from '../http/keep-alive.ts';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { z } from 'zod';
import { MockEnvSchema, formatEnvError } from './config.ts';
import { openMockUpstream } from './create.ts';

const EnvSchema = MockEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Where Kiln serves its uploads from; the mock may fetch images from exactly this origin. */
  PUBLIC_URL: z.url({ error: 'PUBLIC_URL must be an absolute http(s) URL' }).optional(),
});

// Empty strings count as unset, as a shell user expects (`PUBLIC_URL= npm run mock`).
const env0 = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ''));
const parsed = EnvSchema.safeParse(env0);
if (!parsed.success) {
  console.error(`kiln mock: bad configuration\n${formatEnvError(parsed.error)}`);
  process.exit(2);
}
const env = parsed.data;
const mock = await openMockUpstream({
  dataDir: env.DATA_DIR,
  keys: env.MOCK_KEYS,
  speed: env.MOCK_SPEED,
  ratePerMinute: env.MOCK_RATE_LIMIT,
  imagePolicy: {
    ownOrigins: () => [env.PUBLIC_URL],
    allowPrivate: env.MOCK_ALLOW_PRIVATE_FETCH,
  },
  log: (m) => console.log(`kiln mock: ${m}`),
});
const root = new Hono().route('/v1', mock.app);
const server = serve({ fetch: root.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  console.log(
    `kiln mock: listening on http://${env.HOST}:${info.port}/v1 (speed ${env.MOCK_SPEED})`,
  );
});
keepConnectionsOpen(server);
const shutdown = () => {
  server.close();
  void mock.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

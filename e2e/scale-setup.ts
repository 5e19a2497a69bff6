// Before the scale suite: the SPA built, then the whole scaled-out stack on nginx's port
// (KILN_SCALE_PORT). Where its access log is goes to the tests in KILN_SCALE_ACCESS_LOG.
import { buildWebIfStale } from '../scripts/build-web.mjs';
import { startStack } from '../src/testing/stack.ts';

export default async function scaleSetup() {
  if (buildWebIfStale() !== 0) throw new Error('vite build failed');
  const stack = await startStack({
    replicas: 2,
    port: Number(process.env.KILN_SCALE_PORT),
    mockSpeed: 'fast',
  });
  process.env.KILN_SCALE_ACCESS_LOG = stack.accessLogPath;
  process.env.KILN_SCALE_REPLICAS = stack.replicas.map((r) => `127.0.0.1:${r.port}`).join(',');
  return () => stack.stop();
}

#!/usr/bin/env node
// `npm start`: build the SPA when it is missing or older than its sources, then run the server.
// Environment variables pass through untouched (PORT, HOST, UPSTREAM_URL, DATA_DIR, ...).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'index.html');

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const sources = [
  'index.html',
  'vite.config.ts',
  'public',
  'src/web',
  'src/client',
  'src/contract',
  'package-lock.json',
]
  .map((p) => join(root, p))
  .filter(existsSync);
const stale = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
if (stale) {
  console.log('kiln: building the web app (vite build)…');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// tsx as a loader in this one child process (its CLI would fork another).
const server = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'src', 'server', 'main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

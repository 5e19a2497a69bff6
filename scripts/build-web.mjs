// Builds the SPA into dist/ when it is missing or older than its sources (`npm start` and
// `npm run generator:preview` share this rule).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = [
  'index.html',
  'vite.config.ts',
  'public',
  'src/web',
  'src/client',
  'src/contract',
  'package-lock.json',
];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Runs `vite build` when dist/ is stale; returns the build's exit status (0 when up to date). */
export function buildWebIfStale() {
  const built = join(root, 'dist', 'index.html');
  const sources = SOURCES.map((p) => join(root, p)).filter(existsSync);
  const stale =
    !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
  if (!stale) return 0;
  console.log('kiln: building the web app (vite build)…');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  return r.status ?? 1;
}

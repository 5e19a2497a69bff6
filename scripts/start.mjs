#!/usr/bin/env node
// `npm start`: build the SPA when it is missing or older than its sources, then run the server.
// Environment variables pass through untouched (PORT, HOST, UPSTREAM_URL, DATA_DIR, ...).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebIfStale } from './build-web.mjs';
import { serverEnv } from './server-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const status = buildWebIfStale();
if (status !== 0) process.exit(status);

// tsx as a loader in this one child process (its CLI would fork another), with glibc's malloc
// kept to two arenas unless MALLOC_ARENA_MAX is set (server-env.mjs, decision 0096).
const server = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'src', 'server', 'main.ts')],
  {
    cwd: root,
    env: serverEnv(process.env),
    stdio: 'inherit',
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

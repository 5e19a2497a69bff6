#!/usr/bin/env node
// `npm start`: build the SPA and the server's bundle when missing or older than their sources, then
// run the server.
// Environment variables pass through untouched (PORT, HOST, UPSTREAM_URL, DATA_DIR, ...).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildWebIfStale } from './build-web.mjs';
import { nodeArgs } from './node-bundle.mjs';
import { serverEnv } from './server-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const status = buildWebIfStale();
if (status !== 0) process.exit(status);

// The server's bundle (node-bundle.mjs, decision 0130) in this one child process, with glibc's
// malloc kept to two arenas unless MALLOC_ARENA_MAX is set (server-env.mjs, decision 0096).
const server = spawn(process.execPath, await nodeArgs('src/server/main.ts'), {
  cwd: root,
  env: serverEnv(process.env),
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

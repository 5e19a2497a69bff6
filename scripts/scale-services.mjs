// What the scale group needs from the machine: PostgreSQL's server binaries and nginx (Debian:
// `apt-get install postgresql nginx`; `.ci/run` installs them). src/testing/postgres.ts finds
// the binaries the same way.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

function postgresInstalled() {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return true;
  const root = '/usr/lib/postgresql';
  if (existsSync(root) && readdirSync(root).some((v) => existsSync(join(root, v, 'bin', 'initdb'))))
    return true;
  return has('initdb');
}

/** Why the scale group cannot run on this machine, or undefined. */
export function scaleMissing() {
  const missing = [];
  if (!postgresInstalled()) missing.push('PostgreSQL (initdb, pg_ctl)');
  if (!has('nginx') && !existsSync('/usr/sbin/nginx')) missing.push('nginx');
  if (missing.length === 0) return undefined;
  return `${missing.join(' and ')} not installed: run \`sudo apt-get install postgresql nginx\` (\`.ci/run\` does), then \`npm test\` again.`;
}

// Tests and benches only: a throwaway PostgreSQL cluster (Debian's postgresql package), copied from
// one initdb template into a temp dir, started with pg_ctl on a free loopback port, removed afterwards.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

export interface TestPostgres {
  /** `postgres://kiln@127.0.0.1:<port>/kiln` */
  url: string;
  port: number;
  /** Stops the server (fast shutdown: connections are cut). */
  stop(): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /**
   * Restarts it without blocking this process (the load a test drives goes on meanwhile):
   * `fast` ends every session with "terminating connection due to administrator command",
   * `immediate` drops them as a crash would.
   */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): void;
}

/** Where Debian puts the server binaries (initdb and pg_ctl are not on PATH there). */
export function postgresBin(): string | undefined {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return found ? join(found, '..') : undefined;
}

/** The reason scale tests cannot run here, or undefined when PostgreSQL is installed. */
export function postgresMissing(): string | undefined {
  if (postgresBin()) return undefined;
  return 'PostgreSQL is not installed (apt-get install postgresql); `.ci/run` installs it.';
}

/**
 * A cluster as initdb makes it, made once for this machine's PostgreSQL and user and kept in the
 * temp dir (each scale file, a process of its own, would otherwise run initdb again): made under
 * a name of its own, then renamed into place, so a half-made template is never used.
 */
function clusterTemplate(bin: string, run: (cmd: string, args: string[]) => void): string {
  const key = createHash('sha256')
    .update(`${bin}:${process.getuid?.() ?? ''}`)
    .digest('hex');
  const template = join(tmpdir(), `kiln-pg-template-${key.slice(0, 12)}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const making = `${template}.${process.pid}`;
  rmSync(making, { recursive: true, force: true });
  run('initdb', ['-D', making, '-U', 'kiln', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  try {
    renameSync(making, template);
  } catch {
    // Another process made it first.
    rmSync(making, { recursive: true, force: true });
  }
  return template;
}

/**
 * A new cluster with a `kiln` superuser and database, trusting loopback connections. PostgreSQL
 * refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresMissing());
  const dir = mkdtempSync(join(tmpdir(), 'kiln-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const command = (cmd: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]]
      : [join(bin, cmd), args];
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = command(cmd, args);
    const r = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${cmd} failed:\n${r.stdout}\n${r.stderr}`);
  };
  const template = clusterTemplate(bin, run);
  // A copy of the template (ownership and modes kept): a few times faster than initdb each time.
  const copied = spawnSync('cp', ['-a', template, data], { encoding: 'utf8' });
  if (copied.status !== 0)
    throw new Error(`copying the cluster template failed:\n${copied.stderr}`);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c max_connections=200',
  ].join(' ');
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  const pgCtl = promisify(execFile);
  const restart = async (mode: 'fast' | 'immediate') => {
    const [file, argv] = command('pg_ctl', [
      '-D',
      data,
      '-o',
      options,
      '-l',
      join(dir, 'log'),
      '-m',
      mode,
      '-w',
      'restart',
    ]);
    await pgCtl(file, argv, { cwd: dir });
  };
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'kiln', 'kiln']);
  return {
    url: `postgres://kiln@127.0.0.1:${port}/kiln`,
    port,
    stop,
    start,
    restart,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Tests and benches only: Kiln scaled out, as docs/deploy.md describes it, every part a real
// process on loopback: PostgreSQL (a throwaway cluster), an S3-compatible server (s3rver), the
// standalone mock upstream, N Kiln replicas, and nginx balancing them round-robin.
import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { serverEnv } from '../../scripts/server-env.mjs';
import { freePort } from './ports.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './postgres.ts';
import { startS3, type TestS3 } from './s3.ts';
import { spawnEntry, type Spawned } from './spawn-server.ts';

export const STACK_KEY = 'tr_demo_kiln';
/** The secret every replica shares (KILN_SECRET). */
const SECRET = 'scale-test-secret-0123456789abcdef0123456789';

/** Why the scale group cannot run here (a missing program), or undefined. */
function stackMissing(): string | undefined {
  const pg = postgresMissing();
  if (pg) return pg;
  if (spawnSync('sh', ['-c', 'command -v nginx || test -x /usr/sbin/nginx']).status !== 0)
    return 'nginx is not installed (apt-get install nginx); `.ci/run` installs it.';
  return undefined;
}

interface Replica {
  port: number;
  url: string;
  process: Spawned | undefined;
}

export interface Stack {
  /** nginx's origin: the one address clients use. */
  url: string;
  pg: TestPostgres;
  s3: TestS3;
  mock: Spawned;
  replicas: Replica[];
  /** The environment every replica runs with (less PORT and DATA_DIR). */
  env: Record<string, string>;
  /** The mock's ledger for a key, read from its database: its tasks and its balance. */
  mockLedger(key?: string): {
    tasks: { id: string; prompt: string | undefined; status: string; credits: number }[];
    balance: number;
    starting: number;
  };
  /** nginx's access log, a line per request: `METHOD URI STATUS UPSTREAM`. */
  accessLog(): AccessLogLine[];
  accessLogPath: string;
  startReplica(i: number): Promise<void>;
  kill9(i: number): Promise<void>;
  stop(): Promise<void>;
}

export interface StackOptions {
  replicas?: number;
  mockSpeed?: 'fast' | 'realistic' | 'instant';
  balance?: number;
  /** Extra environment for the replicas. */
  env?: Record<string, string>;
  /** More mock keys (`key:balance`) beside tr_demo_kiln and tr_e2e_poor. */
  keys?: string[];
  /** nginx's port (default: a free one). */
  port?: number;
}

/** The standalone mock upstream, its keys funded; it may fetch uploads from nginx's `url`. */
function startMock(dir: string, url: string, options: StackOptions): Promise<Spawned> {
  return spawnEntry('src/mock/main.ts', {
    DATA_DIR: join(dir, 'mock'),
    MOCK_SPEED: options.mockSpeed ?? 'fast',
    MOCK_KEYS: [
      `${STACK_KEY}:${options.balance ?? 100_000}`,
      'tr_e2e_poor:5',
      ...(options.keys ?? []),
    ].join(','),
    MOCK_RATE_LIMIT: '0',
    // The replicas name uploads on nginx's address (PUBLIC_URL): the mock may fetch from it.
    PUBLIC_URL: url,
  });
}

/** Every replica's environment, as docs/deploy.md sets it. */
function replicaEnv(
  url: string,
  mockUrl: string,
  pg: TestPostgres,
  s3: TestS3,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    UPSTREAM_URL: `${mockUrl}/v1`,
    DATABASE_URL: pg.url,
    KILN_SECRET: SECRET,
    ...s3.env,
    PUBLIC_URL: url,
    TRUST_PROXY: '1',
    CREATE_RATE_LIMIT: '0',
    UPLOAD_RATE_LIMIT: '0',
    // glibc's malloc arenas, as `npm start` sets them (decision 0096).
    MALLOC_ARENA_MAX: serverEnv(process.env).MALLOC_ARENA_MAX,
    ...extra,
  };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const missing = stackMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'kiln-stack-'));
  const replicas: Replica[] = [];
  for (let i = 0; i < (options.replicas ?? 2); i++) {
    const port = await freePort();
    replicas.push({ port, url: `http://127.0.0.1:${port}`, process: undefined });
  }
  // nginx first: its address is every replica's PUBLIC_URL, so it is settled before they start.
  const [{ nginx, port: nginxPort }, pg, s3] = await Promise.all([
    startNginx(dir, options.port, replicas),
    startPostgres(),
    startS3(),
  ]);
  const url = `http://127.0.0.1:${nginxPort}`;
  const mock = await startMock(dir, url, options);
  const env = replicaEnv(url, mock.url, pg, s3, options.env);
  const startReplica = async (i: number) => {
    const r = replicas[i]!;
    r.process = await spawnEntry('src/server/main.ts', {
      ...env,
      PORT: String(r.port),
      DATA_DIR: join(dir, `replica-${i}`),
    });
  };
  // Two at once, as an operator's deploy would: migrations must not race.
  await Promise.all(replicas.map((_, i) => startReplica(i)));
  await waitFor(`${url}/api/health`);

  return {
    url,
    pg,
    s3,
    mock,
    replicas,
    env,
    mockLedger(key = STACK_KEY) {
      const db = new Database(join(dir, 'mock', 'mock', 'mock.sqlite'), { readonly: true });
      try {
        const hash = createHash('sha256').update(key).digest('hex');
        const account = db
          .prepare('select balance, starting_balance from accounts where key_hash = ?')
          .get(hash) as { balance: number; starting_balance: number };
        const rows = db
          .prepare(
            'select id, request_json, status, credits from tasks where key_hash = ? order by seq',
          )
          .all(hash) as { id: string; request_json: string; status: string; credits: number }[];
        return {
          balance: account.balance,
          starting: account.starting_balance,
          tasks: rows.map((r) => ({
            id: r.id,
            prompt: (JSON.parse(r.request_json) as { prompt?: string }).prompt,
            status: r.status,
            credits: r.credits,
          })),
        };
      } finally {
        db.close();
      }
    },
    accessLog: () => readAccessLog(join(dir, 'access.log')),
    accessLogPath: join(dir, 'access.log'),
    startReplica,
    async kill9(i) {
      await replicas[i]?.process?.kill9();
      replicas[i]!.process = undefined;
    },
    async stop() {
      nginx.kill('SIGTERM');
      await Promise.all(replicas.map((r) => r.process?.stop()));
      await mock.stop();
      pg.destroy();
      await s3.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface AccessLogLine {
  method: string;
  uri: string;
  status: number;
  /** The replica nginx chose (`127.0.0.1:port`; several, comma-separated, when it retried). */
  upstream: string;
}

/** nginx's access log in the `kiln` format: `METHOD URI STATUS UPSTREAM` a line. */
export function readAccessLog(file: string): AccessLogLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [method = '', uri = '', status = '0', ...upstream] = line.split(' ');
      return { method, uri, status: Number(status), upstream: upstream.join(' ') };
    });
}

/** The nginx configuration of docs/deploy.md, for these replicas. */
function nginxConfig(dir: string, port: number, replicas: readonly { port: number }[]) {
  const asRoot = process.getuid?.() === 0;
  return `
${asRoot ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  log_format kiln '$request_method $uri $status $upstream_addr';
  access_log ${dir}/access.log kiln;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  upstream kiln {
${replicas.map((r) => `    server 127.0.0.1:${r.port} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    server_tokens off;
    client_max_body_size 40m;
    # Not on the public listener: Prometheus scrapes each replica directly (decision 0094).
    location = /metrics {
      return 404;
    }
    location / {
      proxy_pass http://kiln;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Stream both ways: uploads and long sync creates are not buffered.
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

/**
 * nginx on `port`, or on a free port when none is given: a port found free can be taken (by a
 * connection's own end) before nginx binds it, and then another is tried.
 */
async function startNginx(
  dir: string,
  port: number | undefined,
  replicas: Replica[],
): Promise<{ nginx: ChildProcess; port: number }> {
  for (const d of ['nginx-body', 'nginx-proxy', 'nginx-fastcgi', 'nginx-uwsgi', 'nginx-scgi'])
    mkdirSync(join(dir, d), { recursive: true });
  const bin =
    spawnSync('sh', ['-c', 'command -v nginx']).stdout.toString().trim() || '/usr/sbin/nginx';
  for (let attempt = 1; ; attempt++) {
    const tried = port ?? (await freePort());
    const conf = join(dir, 'nginx.conf');
    writeFileSync(conf, nginxConfig(dir, tried, replicas));
    const nginx = spawn(bin, ['-c', conf, '-p', dir], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
    if (await listening(dir, tried, exited)) return { nginx, port: tried };
    const log = readFileSync(join(dir, 'nginx-error.log'), 'utf8');
    if (port !== undefined || attempt >= 5 || !log.includes('Address already in use'))
      throw new Error(`nginx did not start on port ${tried}:\n${log}`);
  }
}

/**
 * True once nginx has bound `port` (its pid file is written after its sockets are open) and
 * accepts connections there; false if it exits first.
 */
async function listening(dir: string, port: number, exited: Promise<void>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const until = Date.now() + 10_000;
  while (!gone && Date.now() < until) {
    if (existsSync(join(dir, 'nginx.pid')) && (await accepts(port))) return !gone;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Tests only: start a Kiln entry point as a real process on a free port and wait until it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeArgs } from '../../scripts/node-bundle.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Spawned {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: a crash, no cleanup. */
  kill9(): Promise<void>;
}

export async function spawnEntry(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Spawned> {
  // One process, from the entry's bundle as `npm start` runs it: a SIGKILL really kills the server.
  const child = spawn(process.execPath, await nodeArgs(entry), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${log}`)), timeoutMs);
    let started = false;
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      // Kept to its last megabyte or so: a server logs a line per request.
      if (log.length > 2 * 1024 * 1024) log = log.slice(-1024 * 1024);
      if (started) return;
      const m = /listening on (http:\/\/[^\s/"]+)/.exec(log);
      if (m?.[1]) {
        started = true;
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${String(code)}:\n${log}`));
    });
  });
  return {
    child,
    url,
    output: () => log,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Runs an entry point as `spawnEntry` starts it (one process, from its bundle) until it exits by
 * itself, as a refused configuration does: its exit status and what it wrote to stderr. Async, so
 * that several can run at once (`it.concurrent`) while the test worker waits.
 */
export async function runEntryToExit(
  entry: string,
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, await nodeArgs(entry), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

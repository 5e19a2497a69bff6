// Tests only: the real `kiln` command (bin/kiln.mjs) as a child process, the way a script runs
// it: its exit code, stdout and stderr. The environment's own KILN_* variables are left out, so
// a test says every one it means.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const KILN_BIN = fileURLToPath(new URL('../../bin/kiln.mjs', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  /** KILN_URL, KILN_KEY, KILN_POLL_MS… (added to this process's environment without its KILN_*). */
  env?: Record<string, string | undefined>;
}

function envOf(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('KILN_')) env[k] = v;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Starts `kiln args…`; `done` resolves with what it said once it exits. */
export function spawnKilnCli(
  args: readonly string[],
  options: CliOptions,
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [KILN_BIN, ...args], {
    cwd: options.cwd,
    env: envOf(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Runs `kiln args…` to its end. */
export function runKilnCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  return spawnKilnCli(args, options).done;
}

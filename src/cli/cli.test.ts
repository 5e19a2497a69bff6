// The `kiln` command as a script runs it (bin/kiln.mjs, a child process) in a temporary folder,
// against a real Kiln (server, built-in mock with the real generator, SQLite) on a loopback
// port: every command with and without --json, bad usage, a wrong key, no Kiln at all.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter } from '../async/index.ts';
import { NotFoundError } from '../client/index.ts';
import { createKilnApi, type KilnApi } from '../client/kiln/index.ts';
import { runKilnCli, type CliRun } from '../testing/cli.ts';
import type { Io } from './io.ts';
import { main } from './main.ts';
import { photoPath, readPhoto } from '../testing/fixtures.ts';
import { startHttpKiln, type HttpKiln } from '../testing/http-kiln.ts';
import { freePort } from '../testing/ports.ts';
import { KEY } from '../testing/server.ts';

/** A key whose balance covers no task. */
const POOR_KEY = 'tr_poor_key';

let kiln: HttpKiln;
let dir: string;
let api: KilnApi;

beforeAll(async () => {
  kiln = await startHttpKiln({
    statedBalance: true,
    mock: {
      keys: [
        { key: KEY, balance: 1000 },
        { key: POOR_KEY, balance: 5 },
      ],
    },
  });
  api = createKilnApi({ baseUrl: kiln.baseUrl, apiKey: KEY });
  dir = mkdtempSync(join(tmpdir(), 'kiln-cli-'));
  for (const photo of ['chair.png', 'teapot.png']) copyFileSync(photoPath(photo), join(dir, photo));
});
afterAll(async () => {
  await kiln.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `kiln args…` in the temporary folder, against this file's Kiln with the demo key. */
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runKilnCli(args, {
    cwd: dir,
    env: { KILN_URL: kiln.baseUrl, KILN_KEY: KEY, KILN_POLL_MS: '50', ...env },
  });

/** `kiln args…` in this process: `main` itself, with what it writes kept (the bin only calls it). */
async function inProcess(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const said = { stdout: '', stderr: '' };
  const io: Io = {
    out: (text) => void (said.stdout += text),
    err: (text) => void (said.stderr += text),
    errIsTty: false,
    columns: 100,
    rows: 40,
    cwd: dir,
    env: { KILN_URL: kiln.baseUrl, KILN_KEY: KEY, KILN_POLL_MS: '50', ...env },
  };
  const code = await main(args, io);
  return { code, signal: null, ...said };
}

/** Bad usage: the command line, and the flag or argument its one line names. */
const USAGE_CASES: [string, string][] = [
  ['generate chair.png --model', '--model'],
  ['generate chair.png --model beta-text', '--model'],
  ['generate chair.png teapot.png --model beta', '--model'],
  ['generate chair.png --prompt cup', '--prompt'],
  ['generate --prompt=', '--prompt'],
  ['generate nope.png', 'photo'],
  ['generate', 'photo'],
  ['generate chair.png --url ftp://x', '--url'],
  ['generate chair.png --out no/such/folder/x.glb', '--out'],
  ['ls --kind statue', '--kind'],
  ['ls --limit 0', '--limit'],
  ['ls --favourite=yes', '--favourite'],
  ['ls --collection nothing-by-this-name', '--collection'],
  ['export task_x', '--target'],
  ['export task_x --target web --height-mm 10', '--height-mm'],
  ['export task_x --target print --height-mm 0', '--height-mm'],
  ['share', 'ID'],
  ['share task_x task_y', 'task_y'],
  ['batch nowhere', 'FOLDER'],
  ['batch . --model alpha-multiview', '--model'],
  ['batch . --concurrency 50', '--concurrency'],
  ['credits --kiln ftp://x', '--kiln'],
  ['frob', 'command'],
];

/** Several runs at once, three at a time (each is a Node process). */
const three = createLimiter(3);
const cliAll = (runs: string[][], env: Record<string, string | undefined> = {}) =>
  Promise.all(runs.map((args) => three(() => cli(args, env))));

const jsonOf = (run: CliRun) => JSON.parse(run.stdout) as Record<string, unknown>;
const isGlb = (path: string) => readFileSync(path).subarray(0, 4).toString() === 'glTF';

/** A completed alpha model of the teapot, made through the client: its id. */
async function teapotModel(): Promise<string> {
  const photo = await api.upload(readPhoto('teapot.png'), 'teapot.png', 'image/png');
  const task = await api.generate(
    { model: 'alpha', image_url: photo.url },
    { idempotencyKey: `test-${crypto.randomUUID()}`, intervalMs: 20 },
  );
  expect(task.status).toBe('completed');
  return task.id;
}

describe('kiln generate', () => {
  it('makes a model of a photo, named and in a collection, and writes its GLB to --out', async () => {
    const run = await cli([
      'generate',
      'chair.png',
      '--model',
      'alpha',
      '--name',
      'Garden chair',
      '--collection',
      'Chairs',
      '--out',
      'chair.glb',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${join(dir, 'chair.glb')}\n`);
    expect(isGlb(join(dir, 'chair.glb'))).toBe(true);
    expect(run.stderr).toMatch(/^chair\.png: \d+% /m);
    expect(run.stderr).toMatch(/^Made task_\w+ with alpha for \d+ credits/m);

    const listed = jsonOf(await cli(['ls', '--collection', 'chairs', '--json']));
    expect(listed.collection).toMatchObject({ name: 'Chairs' });
    expect(listed.data).toEqual([
      expect.objectContaining({ name: 'Garden chair', model: 'alpha' }),
    ]);
  });

  it('--json says the task in one document; the file takes the model’s own name', async () => {
    const run = await cli(['generate', '--prompt', 'a small red vase', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const doc = jsonOf(run);
    expect(doc).toMatchObject({ model: 'beta-text', status: 'completed', collection: null });
    expect(basename(doc.file as string)).toMatch(
      /^kiln-beta-text-a-small-red-vase-[\d-]+-\w{6}\.glb$/,
    );
    expect(isGlb(doc.file as string)).toBe(true);
    expect(doc.credits_consumed).toBeGreaterThan(0);
  });

  it('takes 2–4 views, and an image address Kiln fetches (--url)', async () => {
    const views = await inProcess(['generate', 'chair.png', 'chair.png', '--json']);
    expect(views.code, views.stderr).toBe(0);
    expect(jsonOf(views)).toMatchObject({ model: 'beta-multiview', status: 'completed' });
    expect(views.stderr).toMatch(/^2 views: Completed$/m);
    // Kiln fetches only public addresses, and its own uploads: one of those stands in here.
    const { url } = await api.upload(readPhoto('flamingo.png'), 'flamingo.png', 'image/png');
    const fetched = await inProcess(['generate', '--url', url, '--model', 'alpha', '--json']);
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(jsonOf(fetched)).toMatchObject({ model: 'alpha', status: 'completed' });
  });

  it('a task that fails exits 1 with its id, and writes nothing', async () => {
    const [text, json] = await cliAll([
      ['generate', '--prompt', 'a vase mock:fail', '--out', 'failed.glb'],
      ['generate', '--prompt', 'a cup mock:fail', '--json'],
    ]);
    expect(text!.code).toBe(1);
    expect(text!.stderr).toMatch(/^kiln: task task_\w+ failed: /m);
    expect(text!.stdout).toBe('');
    expect(existsSync(join(dir, 'failed.glb'))).toBe(false);
    expect(json!.code).toBe(1);
    expect(jsonOf(json!).error).toMatchObject({
      exit_code: 1,
      kind: 'failed',
      detail: { task_id: expect.stringMatching(/^task_/) },
    });
  });
});

describe('kiln ls, export, share and credits', () => {
  let id: string;
  beforeAll(async () => {
    id = await teapotModel();
  });

  it('ls lists the library as lines or as entries, narrowed by its filters', async () => {
    const [text, json] = await cliAll([
      ['ls'],
      ['ls', '--kind', 'photo', '--limit', '1', '--json'],
    ]);
    const prompts = await inProcess(['ls', '--kind', 'prompt', '--json']);
    const found = await inProcess(['ls', '--q', 'teapot']);
    expect(text!.code).toBe(0);
    expect(text!.stdout).toMatch(
      new RegExp(`^${id}\\s+completed\\s+alpha\\s+photo\\s+[\\d-]+\\s+teapot\\.png$`, 'm'),
    );
    expect(jsonOf(json!).data).toEqual([expect.objectContaining({ id })]);
    expect((jsonOf(prompts).data as { id: string }[]).map((e) => e.id)).not.toContain(id);
    expect(found.stdout.trim().split('\n')).toEqual([expect.stringContaining(id)]);
  });

  it('export writes the optimised copy: a GLB for the web, an STL for print', async () => {
    const [web, print] = await cliAll([
      ['export', id, '--target', 'web'],
      ['export', id, '--target', 'print', '--height-mm', '80', '--out', 'teapot.stl', '--json'],
    ]);
    expect(web!.code, web!.stderr).toBe(0);
    const webFile = web!.stdout.trim();
    expect(basename(webFile)).toMatch(/^kiln-alpha-teapot-.*-web\.glb$/);
    expect(isGlb(webFile)).toBe(true);
    expect(web!.stderr).toMatch(/→ web: succeeded/);
    expect(print!.code, print!.stderr).toBe(0);
    expect(jsonOf(print!)).toMatchObject({
      id,
      target: 'print',
      format: 'stl',
      file: join(dir, 'teapot.stl'),
      watertight: true,
    });
    expect(readFileSync(join(dir, 'teapot.stl')).byteLength).toBe(jsonOf(print!).bytes);
  });

  it('share prints the public link, --json its facts, --revoke ends it', async () => {
    const text = await cli(['share', id]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^${kiln.baseUrl}/s/[\\w-]{24}\\n$`));
    const json = jsonOf(await cli(['share', id, '--json']));
    expect(json).toMatchObject({ id, url: text.stdout.trim(), token: expect.any(String) });

    const revoked = await cli(['share', id, '--revoke']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stderr).toBe(`Stopped sharing ${id}: its link answers 404 from now on.\n`);
    await expect(api.shares.public(json.token as string)).rejects.toBeInstanceOf(NotFoundError);
    // Again: nothing left to revoke, and a script that repeats itself still succeeds.
    const again = await cli(['share', id, '--revoke', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonOf(again)).toEqual({ id, revoked: false });
  });

  it('credits prints the balance (and its history); --json the whole account', async () => {
    const [text, json] = await cliAll([
      ['credits', '--history'],
      ['credits', '--json'],
    ]);
    expect(text!.code).toBe(0);
    expect(text!.stdout).toMatch(/^Balance: \d+ credits, as of \S+ \(exact\)\.$/m);
    expect(text!.stdout).toContain(id);
    const doc = jsonOf(json!);
    expect(doc.balance).toEqual(expect.any(Number));
    expect(doc.history).toEqual(expect.arrayContaining([expect.objectContaining({ task_id: id })]));
  });
});

describe('what a script can rely on', () => {
  it('bad usage exits 2 naming the flag, before anything is sent; --json makes it a document', async () => {
    const [unknown, bad] = await cliAll([
      ['generate', 'chair.png', '--bogus'],
      ['ls', '--sort', 'size', '--json'],
    ]);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown!.stderr).toBe(
      'kiln: --bogus: unknown flag for kiln generate (`kiln generate --help` lists its flags).\n',
    );
    expect(bad!.code).toBe(2);
    expect(jsonOf(bad!)).toEqual({
      error: {
        exit_code: 2,
        kind: 'usage',
        field: '--sort',
        code: null,
        message: 'must be one of newest, oldest, credits, not "size".',
      },
    });
  });

  it.each(USAGE_CASES)(
    'kiln %s exits 2 naming %s (in-process: the same main)',
    async (line, field) => {
      const run = await inProcess(line.split(' '));
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(new RegExp(`^kiln: ${field.replace(/[-]/g, '\\-')}: [^\\n]+\\n$`));
    },
  );

  it('--help says what each command takes', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /Exit codes: 0 ok, 1 .+ 2 bad usage, 3 .+ 4 Kiln not reachable, 5/s,
    );
    for (const command of ['generate', 'batch', 'ls', 'export', 'share', 'credits']) {
      const run = await inProcess([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage:[\\s\\S]*kiln ${command}`));
    }
    expect(JSON.parse((await inProcess(['help', 'ls', '--json'])).stdout)).toEqual({
      help: expect.stringMatching(/^Usage: kiln ls/),
    });
  });

  it('no key or a wrong key exits 3, naming the key', async () => {
    const wrongKey = { KILN_KEY: 'tr_not_a_known_key' };
    const [ls, generate, missing] = await cliAll(
      [['ls'], ['generate', '--prompt', 'a cup', '--json'], ['credits', '--key', '']],
      wrongKey,
    );
    const credits = await inProcess(['credits'], wrongKey);
    const inCollection = await inProcess(['ls', '--collection', 'Chairs'], wrongKey);
    for (const run of [ls!, generate!, missing!, credits, inCollection]) {
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(/^kiln: --key \(or KILN_KEY\): /);
    }
    expect(jsonOf(generate!).error).toMatchObject({ exit_code: 3, kind: 'auth' });
  });

  it('a balance that does not cover the task exits 5, and nothing is made', async () => {
    const run = await cli(['generate', 'chair.png', '--model', 'gamma'], { KILN_KEY: POOR_KEY });
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toMatch(/^kiln: [^\n]*credit[^\n]*\n$/i);
    const json = await inProcess(['generate', '--prompt', 'a cup', '--json'], {
      KILN_KEY: POOR_KEY,
    });
    expect(jsonOf(json).error).toMatchObject({ exit_code: 5, kind: 'credits' });
    const poor = createKilnApi({ baseUrl: kiln.baseUrl, apiKey: POOR_KEY });
    expect((await poor.library.list()).data).toEqual([]);
  });

  it('a Kiln that is not there exits 4, naming the address', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const ls = await cli(['ls'], { KILN_URL: closed });
    const generate = await inProcess(['generate', 'chair.png', '--json'], { KILN_URL: closed });
    for (const run of [ls, generate]) {
      expect(run.code, run.stderr).toBe(4);
      expect(run.stderr).toContain(
        `kiln: --kiln (or KILN_URL): Kiln could not be reached at ${closed}`,
      );
    }
    expect(jsonOf(generate).error).toMatchObject({ exit_code: 4, kind: 'unreachable' });
  });
});

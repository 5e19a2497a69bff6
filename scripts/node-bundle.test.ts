// The entry bundles (decision 0130): made when missing or stale, each module keeping its own
// import.meta, and run as `npm start` runs the server.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnEntry } from '../src/testing/spawn-server.ts';
import { buildBundle, bundlePath, entryBundle, isStale } from './node-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// A throwaway entry inside src/ (bundles are made from there), removed afterwards.
const name = `bundle-test-${process.pid}`;
const dir = join(root, 'src', name);
const entry = `src/${name}/nested/entry.ts`;

function writeEntry(value: string) {
  mkdirSync(join(dir, 'nested'), { recursive: true });
  writeFileSync(
    join(dir, 'nested', 'entry.ts'),
    `import { where } from '../dep.ts';\nexport const here = import.meta.url;\nexport const dirname = import.meta.dirname;\nexport { where };\nexport const value: string = ${JSON.stringify(value)};\n`,
  );
  writeFileSync(join(dir, 'dep.ts'), 'export const where = import.meta.url;\n');
}

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const suffix of ['', '.map', '.inputs.json'])
    rmSync(`${bundlePath(entry)}${suffix}`, { force: true });
});

describe('an entry bundle', () => {
  it('is named after its entry, under build/node/', () => {
    expect(bundlePath('src/server/main.ts')).toBe(join(root, 'build', 'node', 'server-main.mjs'));
    expect(bundlePath('src/cli/main.ts')).toBe(join(root, 'build', 'node', 'cli-main.mjs'));
  });

  it('keeps each module’s own import.meta, so paths relative to it are as under tsx', async () => {
    writeEntry('first');
    const out = await buildBundle(entry);
    const bundled = (await import(`${pathToFileURL(out).href}?t=1`)) as Record<string, string>;
    expect(bundled.here).toBe(pathToFileURL(join(dir, 'nested', 'entry.ts')).href);
    expect(bundled.dirname).toBe(join(dir, 'nested'));
    expect(bundled.where).toBe(pathToFileURL(join(dir, 'dep.ts')).href);
  });

  it('is made again when a file it was made from changed or is gone, and not otherwise', async () => {
    writeEntry('first');
    await buildBundle(entry);
    expect(isStale(entry)).toBe(false);
    expect(await entryBundle(entry)).toBe(bundlePath(entry));

    // A module changed (its mtime, even one in the future): stale until made again, then new.
    const later = new Date(Date.now() + 60_000);
    writeEntry('second');
    utimesSync(join(dir, 'nested', 'entry.ts'), later, later);
    expect(isStale(entry)).toBe(true);
    const out = await entryBundle(entry);
    expect(isStale(entry)).toBe(false);
    const bundled = (await import(`${pathToFileURL(out).href}?t=2`)) as Record<string, string>;
    expect(bundled.value).toBe('second');

    // A file it was made from is gone: stale.
    rmSync(join(dir, 'dep.ts'));
    expect(isStale(entry)).toBe(true);
  });

  it('tells the worker pools where each job’s bundle is, and makes those too', async () => {
    const out = await entryBundle('src/server/main.ts');
    const text = readFileSync(out, 'utf8');
    for (const job of ['generator/runtime/job', 'server/optimise/worker-job', 'mcp/facts-job']) {
      const bundle = bundlePath(`src/${job}.ts`);
      expect(text).toContain(
        `${JSON.stringify(pathToFileURL(join(root, 'src', `${job}.ts`)).href)}: ${JSON.stringify(pathToFileURL(bundle).href)}`,
      );
      expect(existsSync(bundle), bundle).toBe(true);
    }
  });

  it('runs a generation on a worker thread from the job’s bundle', async () => {
    const data = mkdtempSync(join(tmpdir(), 'kiln-bundle-'));
    const server = await spawnEntry('src/server/main.ts', {
      DATA_DIR: data,
      MOCK_KEYS: 'tr_bundle_test:100',
      MOCK_SPEED: 'instant',
      LOG_LEVEL: 'warn',
    });
    try {
      const res = await fetch(`${server.url}/mock/v1/3d/generations`, {
        method: 'POST',
        headers: { authorization: 'Bearer tr_bundle_test', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'beta-text', prompt: 'a red cube', mode: 'sync' }),
      });
      expect(((await res.json()) as { status: string }).status).toBe('completed');
    } finally {
      await server.stop();
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('runs the server as `npm start` does: a bad setting is said by name, exit 2', async () => {
    const args = ['--enable-source-maps', await entryBundle('src/server/main.ts')];
    const run = spawnSync(process.execPath, args, {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('PORT: PORT must be a number');
  });
});

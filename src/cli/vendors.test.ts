// `kiln generate` with a vendor's model (issue 35 after issue 34): the real bin against a real
// Kiln on a loopback port whose Meshy is the Meshy mock over HTTP. The Meshy key comes from
// KILN_MESHY_KEY and the library from KILN_LIBRARY (decision 0114), as `npm run mcp` reads them;
// a Meshy model without its key is refused before anything is sent, naming the variable.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKilnCli } from '../testing/cli.ts';
import { photoPath } from '../testing/fixtures.ts';
import { MESHY_KEY, startKilnWithMeshy } from '../testing/meshy.ts';
import { KEY } from '../testing/server.ts';
import { EXIT } from './exit.ts';

const LIBRARY = `kl_${'C'.repeat(43)}`;

let served: Awaited<ReturnType<typeof startKilnWithMeshy>>;
let dir: string;

beforeAll(async () => {
  served = await startKilnWithMeshy();
  dir = mkdtempSync(join(tmpdir(), 'kiln-cli-vendors-'));
  copyFileSync(photoPath('chair.png'), join(dir, 'chair.png'));
}, 60_000);
afterAll(async () => {
  await served?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `kiln args…` in the temporary folder against this file's Kiln, with `env` only. */
const cli = (args: string[], env: Record<string, string>) =>
  runKilnCli(args, {
    cwd: dir,
    env: { KILN_URL: served.kiln.baseUrl, KILN_POLL_MS: '50', ...env },
  });

const ARTIST = { KILN_LIBRARY: LIBRARY, KILN_MESHY_KEY: MESHY_KEY };

describe('kiln with a vendor’s model', () => {
  it('makes a model with meshy/meshy-6 from a photo, writes its GLB, and lists it in the library', async () => {
    const balance = served.meshy.mock.balanceOf(MESHY_KEY)!;
    const run = await cli(
      ['generate', 'chair.png', '--model', 'meshy/meshy-6', '--out', 'chair.glb', '--json'],
      ARTIST,
    );
    expect(run.code, run.stderr).toBe(0);
    const made = JSON.parse(run.stdout) as { id: string; model: string; file: string };
    expect(made).toMatchObject({ model: 'meshy/meshy-6', status: 'completed', name: null });
    expect(made.id).toMatch(/^meshy_/);
    expect(made.file).toBe(join(dir, 'chair.glb'));
    expect(existsSync(made.file)).toBe(true);
    expect(readFileSync(made.file).subarray(0, 4).toString('latin1')).toBe('glTF');
    // Charged once, by Meshy, on the artist's Meshy key.
    expect(served.meshy.mock.balanceOf(MESHY_KEY)).toBeLessThan(balance);
    expect(run.stdout + run.stderr).not.toContain(MESHY_KEY);

    const ls = await cli(['ls', '--json'], ARTIST);
    expect(ls.code, ls.stderr).toBe(0);
    const listed = JSON.parse(ls.stdout) as { data: { id: string; model: string }[] };
    expect(listed.data).toEqual([
      expect.objectContaining({ id: made.id, model: 'meshy/meshy-6', status: 'completed' }),
    ]);
  }, 60_000);

  it('without KILN_MESHY_KEY: exit 3 (no key), one line naming the variable, nothing sent', async () => {
    const before = served.meshy.mock.balanceOf(MESHY_KEY);
    const run = await cli(['generate', 'chair.png', '--model', 'meshy/meshy-6'], {
      KILN_KEY: KEY,
    });
    expect(run.code).toBe(EXIT.auth);
    expect(run.stderr).toBe(
      'kiln: KILN_MESHY_KEY: is not set: meshy/meshy-6 is a Meshy model, made with your Meshy API key.\n',
    );
    const json = await cli(['generate', 'chair.png', '--model', 'meshy/meshy-6', '--json'], {
      KILN_LIBRARY: LIBRARY,
    });
    expect(json.code).toBe(EXIT.auth);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { exit_code: 3, kind: 'auth', field: 'KILN_MESHY_KEY' },
    });
    expect(served.meshy.mock.balanceOf(MESHY_KEY)).toBe(before);
  }, 30_000);

  it('a model Kiln or the vendor does not know, or no key at all, says so by flag and variable', async () => {
    const unknown = await cli(['generate', 'chair.png', '--model', 'acme/x1'], ARTIST);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toMatch(/^kiln: --model: must be one of .*meshy\/…/);
    // A vendor's model the vendor does not have: Kiln's refusal names the model, exit 2.
    const missing = await cli(['generate', 'chair.png', '--model', 'meshy/meshy-0'], ARTIST);
    expect(missing.code, missing.stderr).toBe(EXIT.usage);
    expect(missing.stderr).toMatch(/^kiln: --model: .*meshy-0/);
    const none = await cli(['generate', 'chair.png', '--model', 'meshy/meshy-6'], {});
    expect(none.code).toBe(EXIT.auth);
    expect(none.stderr).toMatch(/^kiln: --key \(or KILN_KEY\): no API key: .*KILN_LIBRARY/);
  }, 30_000);
});

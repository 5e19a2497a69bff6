// bench/viewer's share pages (BENCH_PAGE=share, issue 36): each bench file made into a shared
// model of Kiln's real server, as an artist's would be. The mock upstream answers a prompt naming
// the file with that file's bytes; Kiln archives it; a link is made; and the gallery, opened with
// the key in a browser, draws each model's picture as it does for any model no browser has shown
// (the picture a share page shows first, and `<model-viewer>`'s poster here).
import type { Browser } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { KEY, type TestServer } from '../src/testing/server.ts';

/** A bench file's shared model: its page, and the GLB and picture that page shows. */
export interface SharedFile {
  page: string;
  model: string;
  poster: string | null;
}

const json = (body: object): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** GET `path` until `done` says its JSON is what is waited for (at most `seconds`). */
async function until<T>(
  kiln: TestServer,
  path: string,
  done: (body: T) => boolean,
  seconds = 120,
): Promise<T> {
  for (let i = 0; i < seconds * 4; i++) {
    const body = (await (await kiln.request(path)).json()) as T;
    if (done(body)) return body;
    await sleep(250);
  }
  throw new Error(`${path} did not come to the state waited for in ${seconds} s`);
}

/** One file as a generated, archived, shared model: its task id and link token. */
async function shareOne(kiln: TestServer, file: string): Promise<{ id: string; token: string }> {
  const created = await kiln.request(
    '/api/v1/3d/generations',
    json({ model: 'beta-text', prompt: file }),
  );
  if (created.status !== 202) throw new Error(`${file}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  await until<{ status: string }>(kiln, `/api/v1/tasks/${id}`, (t) => t.status !== 'pending');
  await until<{ status: string; archived: boolean }>(
    kiln,
    `/api/library/${id}`,
    (e) => e.archived || e.status === 'failed',
  );
  const shared = await kiln.request(`/api/library/${id}/share`, { method: 'POST' });
  if (!shared.ok) throw new Error(`${file}: sharing answered ${shared.status}`);
  const { token } = (await shared.json()) as { token: string };
  return { id, token };
}

/** Each of `files` shared; its picture drawn by the gallery in `browser` at `origin`. */
export async function shareFiles(
  kiln: TestServer,
  browser: Browser,
  origin: string,
  files: readonly string[],
): Promise<Map<string, SharedFile>> {
  const made = new Map<string, { id: string; token: string }>();
  for (const file of files) made.set(file, await shareOne(kiln, file));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((key) => localStorage.setItem('kiln.apiKey', key), KEY);
  const page = await context.newPage();
  await page.goto(`${origin}/gallery`);
  const shared = new Map<string, SharedFile>();
  try {
    for (const [file, { id, token }] of made) {
      const entry = await until<{ thumbnail_url: string | null }>(
        kiln,
        `/api/library/${id}`,
        (e) => e.thumbnail_url !== null,
        180,
      ).catch(() => ({ thumbnail_url: null }));
      shared.set(file, {
        page: `/s/${token}`,
        model: `/api/shares/${token}/model.glb`,
        poster: entry.thumbnail_url === null ? null : `/api/shares/${token}/thumbnail.webp`,
      });
    }
  } finally {
    await context.close();
  }
  return shared;
}

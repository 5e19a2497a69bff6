// Kiln's viewer in headless Chromium: a server for the SPA and the models, one page load per
// model, and shots of the canvas from several angles once it has stopped drawing.
import { serve } from '@hono/node-server';
import type { Page } from '@playwright/test';
import { Hono } from 'hono';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer } from '../../src/testing/server.ts';
import type { Model } from './models.ts';

const TIMEOUT_MS = Math.max(5000, Number(process.env.PREVIEW_TIMEOUT_MS ?? 60_000) || 60_000);

/**
 * The page's stage is min(68vh, 760px) tall and the page's width less 2 × 21 px wide: a 374 px
 * square here (the viewer fits the model to a square, the cells are 280 px). A larger canvas costs
 * SwiftShader time on every frame of the damped turns.
 */
export const VIEWPORT = { width: 416, height: 550 };

/** Quiet time (no WebGL draw call) after which the view counts as settled. */
const QUIET_MS = 400;

/** Runs in the page before the app: notes the time of each WebGL draw call. */
export function watchDraws() {
  const w = window as unknown as { __previewLastDraw: number };
  w.__previewLastDraw = 0;
  for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype]) {
    const p = proto as unknown as Record<string, unknown>;
    for (const name of [
      'drawArrays',
      'drawElements',
      'drawArraysInstanced',
      'drawElementsInstanced',
      'drawRangeElements',
    ]) {
      const original = p[name];
      if (typeof original !== 'function') continue;
      p[name] = function (this: unknown, ...args: unknown[]) {
        w.__previewLastDraw = performance.now();
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  }
}

/** Waits until nothing has been drawn for QUIET_MS (the camera has stopped); false on timeout. */
async function settled(page: Page): Promise<boolean> {
  try {
    await page.waitForFunction(
      (quiet) => {
        const last = (window as unknown as { __previewLastDraw?: number }).__previewLastDraw ?? 0;
        return last > 0 && performance.now() - last > quiet;
      },
      QUIET_MS,
      { timeout: 20_000, polling: 100 },
    );
    return true;
  } catch {
    return false;
  }
}

export interface Shots {
  images: Buffer[];
  failure?: string;
}

export async function shoot(
  page: Page,
  origin: string,
  model: Model,
  angles: number,
): Promise<Shots> {
  const images: Buffer[] = [];
  await page.goto(`${origin}/viewer?src=${encodeURIComponent(`/preview/${model.id}.glb`)}`);
  const viewer = page.getByTestId('model-viewer').first();
  const state = await page
    .waitForFunction(
      () => {
        const s = document
          .querySelector('[data-testid="model-viewer"]')
          ?.getAttribute('data-state');
        return s === 'ready' || s === 'error' ? s : false;
      },
      undefined,
      { timeout: TIMEOUT_MS, polling: 100 },
    )
    .then((h) => h.jsonValue())
    .catch(() => 'timeout');
  if (state !== 'ready') {
    const message =
      state === 'error'
        ? ((await viewer.locator('[role="alert"]').first().textContent()) ?? 'error')
        : `no model after ${TIMEOUT_MS / 1000} s`;
    return { images, failure: message.trim() };
  }
  const canvas = viewer.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) return { images, failure: 'no canvas' };
  const height = await canvas.evaluate((c) => c.clientHeight);
  const side = Math.min(box.width, box.height);
  const clip = { x: box.x + (box.width - side) / 2, y: box.y + (box.height - side) / 2 };
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const quarter = height / 4;
  for (let angle = 0; angle < angles; angle++) {
    if (angle > 0) {
      // A leftward drag turns the camera the way the ← key does: front → right → back → left.
      await page.mouse.move(cx + quarter / 2, cy);
      await page.mouse.down();
      await page.mouse.move(cx - quarter / 2, cy, { steps: 6 });
      await page.mouse.up();
      await page.mouse.move(1, 1);
    }
    if (!(await settled(page))) console.log(`    (${model.title}: the view did not settle)`);
    images.push(await page.screenshot({ clip: { ...clip, width: side, height: side } }));
  }
  return { images };
}

/** Kiln's server app on the built SPA (`staticDir`), with the GLBs on /preview/<id>.glb. */
export async function startServer(staticDir: string, files: Map<string, Uint8Array>) {
  const kiln = await startTestServer({ staticDir });
  const app = new Hono();
  app.get('/preview/:file', (c) => {
    const bytes = files.get(c.req.param('file').replace(/\.glb$/, ''));
    if (!bytes) return c.notFound();
    return c.body(new Uint8Array(bytes).buffer, 200, {
      'Content-Type': 'model/gltf-binary',
      'Cache-Control': 'no-store',
    });
  });
  app.all('*', (c) => kiln.app.fetch(c.req.raw, c.env));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    (server as Server).closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await kiln.close();
  };
  return { origin, close };
}

// bench/grabcut: OpenCV's GrabCut (the WebAssembly build on npm, @techstark/opencv-js) against
// Kiln's own segmentation of opaque photos (a smooth backdrop field fitted to the border,
// src/generator/photo/backdrop.ts and mask.ts; decisions 0049, 0064), on the 40 composites of
// the generator's tests: the five alpha fixture photos (chair, flamingo, hamburger, horse, robot)
// over the eight backdrops of src/testing/backdrops.ts. For each composite and method:
//   - mask IoU against the truth, exactly as src/generator/photo/backdrops.test.ts scores it: the
//     truth is loadSubject() of the alpha photo (its alpha on the 160-sample grid), the score
//     iou(mask, truth) on that grid, so the figures compare with decision 0064's table;
//   - the methods: Kiln's (loadSubject(composite).mask); GrabCut, 5 iterations, on the same
//     grid's colours (sampleGrid of the decoded photo: 160 samples on the long side) and on a
//     grid twice as fine (320) brought back to the 160 grid by the share of object sub-samples,
//     each seeded three ways: (a) "rect", a rectangle 3 samples inside the frame
//     (GC_INIT_WITH_RECT); (b) "seeds", a border band 2 samples wide definite background, the
//     middle half of the frame (25–75 % each way) probable foreground, the rest probable
//     background (GC_INIT_WITH_MASK); (c) "field", Kiln's own mask as probable foreground, the
//     samples within 6 samples of it probable background, the rest definite background (a graph
//     cut refining the fitted field). GrabCut's cut goes through the same steps as an alpha
//     channel does in loadSubject (maskFromAlpha at 0.3: thin parts widened; cleanMask;
//     framedObject), so it is scored as Kiln would use it; the raw cut is summarised too;
//   - time per composite, median over the 40: Kiln's loadSubject (decode, grid, mask) and
//     GrabCut's cut alone (building its inputs, grabCut, reading the labels back; the decode
//     and grid it needs are timed once, separately);
//   - the library's cost: opencv.js's size on disk (raw and gzip -9), the package's size, the
//     time to load and initialise it in this process and in a fresh worker thread, the memory
//     it takes, and its licence.
// Prints figures; asserts nothing (exit 0). Run: npx tsx bench/grabcut.ts
// opencv.js is not a dependency of Kiln: install it outside the project
// (mkdir -p /tmp/opencv && cd /tmp/opencv && npm init -y && npm i @techstark/opencv-js) or with
// `npm i --no-save @techstark/opencv-js`; OPENCV_JS_DIR names a directory it resolves from.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { loadImage, sampleGrid, type SampleGrid } from '../src/generator/core/raster.ts';
import { framedObject } from '../src/generator/photo/framed-object.ts';
import { cleanMask, maskFromAlpha, type Mask } from '../src/generator/photo/mask.ts';
import { SUBJECT_DEFAULTS, gridSize, loadSubject } from '../src/generator/photo/subject.ts';
import { BACKDROPS, composite, type BackdropName } from '../src/testing/backdrops.ts';
import { readPhoto } from '../src/testing/fixtures.ts';
import { iou } from '../src/testing/generator.ts';

const PACKAGE = '@techstark/opencv-js';
const PHOTOS = ['chair', 'flamingo', 'hamburger', 'horse', 'robot'] as const;
const ITERATIONS = 5;
/** Samples between the frame and GrabCut's rectangle, on the 160 grid. */
const RECT_INSET = 3;
/** Width of the definite-background border band of the "seeds" variant, on the 160 grid. */
const BORDER_BAND = 2;
/** Beyond this many samples from Kiln's mask, the "field" variant's samples are background. */
const FIELD_REACH = 6;
const PASS = 0.9;

// ---------------------------------------------------------------------------------------------
// The few parts of opencv.js used here (it ships no types Kiln compiles against).

interface CvMat {
  data: Uint8Array;
  delete(): void;
}
interface Cv {
  Mat: new (rows?: number, cols?: number, type?: number) => CvMat;
  Rect: new (x: number, y: number, width: number, height: number) => object;
  matFromArray(rows: number, cols: number, type: number, data: ArrayLike<number>): CvMat;
  grabCut(
    img: CvMat,
    mask: CvMat,
    rect: object,
    bgdModel: CvMat,
    fgdModel: CvMat,
    iterCount: number,
    mode: number,
  ): void;
  CV_8UC1: number;
  CV_8UC3: number;
  GC_BGD: number;
  GC_FGD: number;
  GC_PR_BGD: number;
  GC_PR_FGD: number;
  GC_INIT_WITH_RECT: number;
  GC_INIT_WITH_MASK: number;
  getBuildInformation(): string;
}

/** Where opencv.js is: OPENCV_JS_DIR, then Node's own resolution, then /tmp/opencv. */
function findOpenCv(): string | undefined {
  const from = [
    process.env.OPENCV_JS_DIR,
    dirname(new URL(import.meta.url).pathname),
    '/tmp/opencv/node_modules',
    '/tmp/opencv',
  ].filter((d): d is string => Boolean(d));
  for (const dir of from) {
    try {
      return createRequire(join(dir, 'noop.js')).resolve(PACKAGE);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Loads opencv.js and waits for its runtime (the module is a thenable until it is ready). */
async function loadOpenCv(path: string): Promise<Cv> {
  const mod = createRequire(path)(path) as Cv & {
    then?: (ready: (cv: Cv) => void) => void;
    onRuntimeInitialized?: () => void;
  };
  return new Promise((resolve) => {
    if (typeof mod.then === 'function') {
      mod.then((cv) => {
        // Emscripten's module stays a thenable: awaiting it would loop.
        delete (cv as { then?: unknown }).then;
        resolve(cv);
      });
    } else if (typeof mod.Mat === 'function') resolve(mod);
    else mod.onRuntimeInitialized = () => resolve(mod);
  });
}

/** Time from `new Worker` to opencv.js being ready in it (a generator worker's cold start). */
function loadInWorker(path: string): Promise<number> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const m = require(workerData);
    const done = () => parentPort.postMessage('ready');
    if (typeof m.then === 'function') m.then((cv) => { delete cv.then; done(); });
    else if (typeof m.Mat === 'function') done();
    else m.onRuntimeInitialized = done;`;
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: path, execArgv: [] });
    worker.once('message', () => {
      const ms = performance.now() - start;
      void worker.terminate().then(() => resolve(ms));
    });
    worker.once('error', reject);
  });
}

function directorySize(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? directorySize(path) : statSync(path).size;
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// GrabCut on a sample grid.

type Seeding = 'rect' | 'seeds' | 'field';

/** An 8-bit BGR image of the grid's colours (OpenCV's order; GrabCut's models do not care). */
function imageOf(cv: Cv, grid: SampleGrid): CvMat {
  const n = grid.width * grid.height;
  const bytes = new Uint8Array(n * 3);
  for (let s = 0; s < n; s++)
    for (let k = 0; k < 3; k++) bytes[s * 3 + k] = Math.round(grid.rgb[s * 3 + 2 - k]!);
  return cv.matFromArray(grid.height, grid.width, cv.CV_8UC3, bytes);
}

/** Samples within `reach` (8-neighbour steps) of the mask. */
function dilate(inside: Uint8Array, width: number, height: number, reach: number): Uint8Array {
  let cur = new Uint8Array(inside);
  for (let i = 0; i < reach; i++) {
    const next = new Uint8Array(cur);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        if (cur[y * width + x]) continue;
        search: for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height || !cur[ny * width + nx]) continue;
            next[y * width + x] = 1;
            break search;
          }
      }
    cur = next;
  }
  return cur;
}

/** The seed labels of the "seeds" and "field" variants on a grid `scale` × the 160 one. */
function seedLabels(
  cv: Cv,
  seeding: Exclude<Seeding, 'rect'>,
  width: number,
  height: number,
  scale: number,
  kiln: Mask,
): Uint8Array {
  const labels = new Uint8Array(width * height);
  if (seeding === 'seeds') {
    const band = BORDER_BAND * scale;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const border = x < band || y < band || x >= width - band || y >= height - band;
        const centre =
          x >= width * 0.25 && x < width * 0.75 && y >= height * 0.25 && y < height * 0.75;
        labels[y * width + x] = border ? cv.GC_BGD : centre ? cv.GC_PR_FGD : cv.GC_PR_BGD;
      }
    return labels;
  }
  // Kiln's mask, on this grid (nearest sample).
  const inside = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const kx = Math.min(kiln.width - 1, Math.floor(x / scale));
      const ky = Math.min(kiln.height - 1, Math.floor(y / scale));
      inside[y * width + x] = kiln.inside[ky * kiln.width + kx]!;
    }
  const near = dilate(inside, width, height, FIELD_REACH * scale);
  for (let s = 0; s < labels.length; s++)
    labels[s] = inside[s] ? cv.GC_PR_FGD : near[s] ? cv.GC_PR_BGD : cv.GC_BGD;
  return labels;
}

/** GrabCut's object samples (1) on `grid`, seeded as asked. */
function grabCut(cv: Cv, grid: SampleGrid, seeding: Seeding, scale: number, kiln: Mask) {
  const { width, height } = grid;
  const img = imageOf(cv, grid);
  const bgd = new cv.Mat();
  const fgd = new cv.Mat();
  let mask: CvMat | undefined;
  try {
    if (seeding === 'rect') {
      const inset = RECT_INSET * scale;
      mask = new cv.Mat();
      const rect = new cv.Rect(inset, inset, width - 2 * inset, height - 2 * inset);
      cv.grabCut(img, mask, rect, bgd, fgd, ITERATIONS, cv.GC_INIT_WITH_RECT);
    } else {
      const labels = seedLabels(cv, seeding, width, height, scale, kiln);
      mask = cv.matFromArray(height, width, cv.CV_8UC1, labels);
      const rect = new cv.Rect(0, 0, width, height);
      cv.grabCut(img, mask, rect, bgd, fgd, ITERATIONS, cv.GC_INIT_WITH_MASK);
    }
    const out = new Uint8Array(width * height);
    // GC_FGD = 1, GC_PR_FGD = 3: odd labels are object.
    for (let s = 0; s < out.length; s++) out[s] = mask.data[s]! & 1;
    return out;
  } finally {
    img.delete();
    bgd.delete();
    fgd.delete();
    mask?.delete();
  }
}

/** The share of object sub-samples in each sample of the coarse grid. */
function shareOn(cut: Uint8Array, fine: SampleGrid, width: number, height: number): Float32Array {
  const scale = fine.width / width;
  const share = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let n = 0;
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++)
          n += cut[(y * scale + dy) * fine.width + x * scale + dx] ?? 0;
      share[y * width + x] = n / (scale * scale);
    }
  return share;
}

/**
 * The cut as Kiln would use it: an alpha channel's steps in loadSubject. Where framedObject sees
 * several objects (loadSubject would refuse the photo), the cleaned mask is scored as it is.
 */
function asKilnWould(
  share: Float32Array,
  width: number,
  height: number,
): { mask: Mask; several: boolean } {
  const grid: SampleGrid = {
    width,
    height,
    rgb: new Float32Array(width * height * 3),
    alpha: share,
  };
  const cleaned = cleanMask(maskFromAlpha(grid));
  const framed = framedObject(cleaned);
  return framed.kind === 'one'
    ? { mask: framed.mask, several: false }
    : { mask: cleaned, several: true };
}

// ---------------------------------------------------------------------------------------------

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Method {
  name: string;
  what: string;
  scores: Map<string, number>;
  /** The raw cut's score (no alpha steps), for GrabCut. */
  raw: Map<string, number>;
  ms: number[];
}

function method(name: string, what: string): Method {
  return { name, what, scores: new Map(), raw: new Map(), ms: [] };
}

const key = (photo: string, backdrop: BackdropName) => `${photo}/${backdrop}`;

function table(scores: Map<string, number>): string {
  const head = ['          ', ...BACKDROPS.map((b) => b.slice(0, 6).padEnd(6))].join(' ');
  const rows = PHOTOS.map((photo) =>
    [
      photo.padEnd(10),
      ...BACKDROPS.map((b) => {
        const v = scores.get(key(photo, b));
        return (v === undefined || Number.isNaN(v) ? 'error' : v.toFixed(3)).padEnd(6);
      }),
    ].join(' '),
  );
  return [head, ...rows].join('\n');
}

function summary(scores: Map<string, number>): { pass: number; mean: number; min: string } {
  const entries = [...scores.entries()].map(([k, v]) => [k, Number.isNaN(v) ? 0 : v] as const);
  const values = entries.map(([, v]) => v);
  const [minKey, minValue] = entries.reduce((a, b) => (b[1] < a[1] ? b : a));
  return {
    pass: values.filter((v) => v >= PASS).length,
    mean: mean(values),
    min: `${minValue.toFixed(3)} (${minKey})`,
  };
}

async function main() {
  const cpuList = cpus();
  console.log(
    `bench/grabcut: ${cpuList.length} CPUs (${cpuList[0]?.model ?? '?'}), Node ${process.version}, ` +
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const path = findOpenCv();
  if (!path) {
    console.log(
      `${PACKAGE} is not installed (it is no dependency of Kiln). Get it with ` +
        '`npm i --no-save @techstark/opencv-js`, or install it elsewhere ' +
        '(mkdir -p /tmp/opencv && cd /tmp/opencv && npm init -y && npm i @techstark/opencv-js) ' +
        'and run with OPENCV_JS_DIR=/tmp/opencv. Nothing measured.',
    );
    return;
  }

  // The library's cost.
  const packageDir = dirname(dirname(path));
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version?: string;
    license?: string;
  };
  const js = readFileSync(path);
  const gzip = gzipSync(js, { level: 9 }).length;
  const rssBefore = process.memoryUsage().rss;
  const loadStart = performance.now();
  const cv = await loadOpenCv(path);
  const loadMs = performance.now() - loadStart;
  const rssAdded = process.memoryUsage().rss - rssBefore;
  const workerMs = await loadInWorker(path);
  const version = /OpenCV (\S+)/.exec(cv.getBuildInformation())?.[1] ?? '?';
  console.log(`\n${PACKAGE} ${pkg.version ?? '?'} (OpenCV ${version}), ${pkg.license ?? '?'}`);
  console.log(`  ${path}`);
  console.log(
    `  opencv.js ${mb(js.length)} raw, ${mb(gzip)} gzip -9 (the WASM is inside it, base64); ` +
      `package on disk ${mb(directorySize(packageDir))}`,
  );
  console.log(
    `  load and initialise: ${loadMs.toFixed(0)} ms in this process (tsx), ` +
      `${workerMs.toFixed(0)} ms in a fresh worker thread (from new Worker to ready); ` +
      `RSS +${mb(rssAdded)}`,
  );
  if (existsSync(join(packageDir, 'LICENSE'))) {
    const first = readFileSync(join(packageDir, 'LICENSE'), 'utf8').trim().split('\n')[0];
    console.log(`  LICENSE: ${first?.trim()}`);
  }

  const kiln = method('kiln', "Kiln's fitted backdrop field (loadSubject)");
  const cuts: Method[] = [];
  for (const scale of [1, 2])
    for (const seeding of ['rect', 'seeds', 'field'] as const)
      cuts.push(
        method(
          `grabcut-${seeding}-${SUBJECT_DEFAULTS.gridLongSide * scale}`,
          {
            rect: `GrabCut, a rectangle ${RECT_INSET} samples inside the frame`,
            seeds: `GrabCut, border band background, middle half probable object`,
            field: `GrabCut seeded by Kiln's mask (probable object; background beyond ${FIELD_REACH} samples)`,
          }[seeding] + `, on ${SUBJECT_DEFAULTS.gridLongSide * scale} samples`,
        ),
      );
  const decodeMs: number[] = [];
  const several: string[] = [];

  console.log('\nper composite (IoU: kiln, then each GrabCut variant):');
  for (const photo of PHOTOS) {
    const bytes = readPhoto(`${photo}.png`);
    const truth = (await loadSubject(bytes)).mask;
    for (const backdrop of BACKDROPS) {
      const k = key(photo, backdrop);
      const input = await composite(bytes, backdrop);
      let t = performance.now();
      const subject = await loadSubject(input);
      kiln.ms.push(performance.now() - t);
      kiln.scores.set(k, iou(subject.mask, truth));

      t = performance.now();
      const { raster } = await loadImage(input, SUBJECT_DEFAULTS.textureMaxSide);
      const [gw, gh] = gridSize(raster.width, raster.height, SUBJECT_DEFAULTS.gridLongSide);
      const grids = [sampleGrid(raster, gw, gh), sampleGrid(raster, gw * 2, gh * 2)];
      decodeMs.push(performance.now() - t);

      const line = [`${k.padEnd(32)} kiln ${kiln.scores.get(k)!.toFixed(3)}`];
      let i = 0;
      for (const scale of [1, 2])
        for (const seeding of ['rect', 'seeds', 'field'] as const) {
          const m = cuts[i++]!;
          const grid = grids[scale - 1]!;
          try {
            t = performance.now();
            const cut = grabCut(cv, grid, seeding, scale, subject.mask);
            m.ms.push(performance.now() - t);
            const share = shareOn(cut, grid, gw, gh);
            const used = asKilnWould(share, gw, gh);
            if (used.several) several.push(`${m.name} ${k}`);
            m.scores.set(k, iou(used.mask, truth));
            const raw = new Uint8Array(share.length);
            for (let s = 0; s < raw.length; s++) raw[s] = share[s]! >= 0.5 ? 1 : 0;
            m.raw.set(k, iou({ width: gw, height: gh, inside: raw }, truth));
          } catch (error) {
            m.scores.set(k, Number.NaN);
            m.raw.set(k, Number.NaN);
            console.log(`  ${m.name} ${k}: ${String(error)}`);
          }
          line.push(
            `${seeding}${scale * SUBJECT_DEFAULTS.gridLongSide} ${m.scores.get(k)!.toFixed(3)}`,
          );
        }
      console.log(line.join('  '));
    }
  }

  for (const m of [kiln, ...cuts]) {
    const s = summary(m.scores);
    console.log(`\n${m.name}: ${m.what}`);
    console.log(table(m.scores));
    console.log(
      `${s.pass} of 40 at ${PASS} or more; mean ${s.mean.toFixed(3)}; lowest ${s.min}` +
        (m.raw.size
          ? `; the raw cut (no alpha steps): ${summary(m.raw).pass} of 40, mean ${summary(m.raw).mean.toFixed(3)}`
          : ''),
    );
  }

  console.log('\nsummary (time: median per composite over the 40)');
  console.log(
    `${'method'.padEnd(20)} ${'≥ 0.9'.padStart(6)} ${'mean'.padStart(6)} ${'lowest'.padStart(6)} ${'ms'.padStart(7)}`,
  );
  for (const m of [kiln, ...cuts]) {
    const s = summary(m.scores);
    console.log(
      `${m.name.padEnd(20)} ${`${s.pass}/40`.padStart(6)} ${s.mean.toFixed(3).padStart(6)} ` +
        `${s.min.slice(0, 5).padStart(6)} ${median(m.ms).toFixed(1).padStart(7)}`,
    );
  }
  console.log(
    `kiln's time is loadSubject whole (decode to 1024 px, grid, mask); GrabCut's is the cut alone, ` +
      `on top of a decode and grids of ${median(decodeMs).toFixed(1)} ms (median), and for "field" ` +
      `on top of Kiln's mask. opencv.js's one-time load: ${loadMs.toFixed(0)} ms here, ` +
      `${workerMs.toFixed(0)} ms in a worker; ${kb(gzip)} gzip.`,
  );
  if (several.length)
    console.log(
      `GrabCut cuts framedObject called several objects (scored uncropped): ${several.join(', ')}`,
    );
}

await main();

// The fal mock's queue: requests kept in memory, each waiting its turn (IN_QUEUE, with its place),
// then run (IN_PROGRESS, printing log lines) on Kiln's generator, then COMPLETED with its result
// or its error. A successful request is charged when it completes; a server error never is, and
// a rejected input (422) is (fal's FAQ: it "may still be charged").
import { randomBytes, randomUUID } from 'node:crypto';
import type { Limiter } from '../../async/index.ts';
import type { Generator } from '../engine-deps.ts';
import { ImageFetchError } from '../fetch-image.ts';
import type { FalFile, FalMockModel } from './models.ts';

interface FalLog {
  message: string;
  level: 'INFO' | 'ERROR';
  source: 'USER';
  timestamp: string;
}

/** How a request failed: the result endpoint's answer, and the status's `error` fields. */
interface Failure {
  status: number;
  body: unknown;
  error: string;
  errorType: string;
}

export interface FalRequest {
  id: string;
  key: string;
  model: FalMockModel;
  input: Record<string, unknown>;
  status: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';
  seq: number;
  createdMs: number;
  startedMs?: number;
  completedMs?: number;
  logs: FalLog[];
  result?: Record<string, unknown>;
  failure?: Failure;
  /** From `X-Fal-Object-Lifecycle-Preference`: seconds the output file lives (null: forever). */
  lifecycleS: number | null;
}

/** How long a request waits and works, in milliseconds. */
export interface FalSpeed {
  /** The least time a request shows IN_QUEUE. */
  queueMs: number;
  /** Time between two log lines while IN_PROGRESS. */
  stepMs: number;
}

export const FAL_SPEEDS = {
  /** About a second and a half, plus the generator's time: for tests. */
  fast: { queueMs: 250, stepMs: 150 },
  /** About half a minute: for demos. */
  real: { queueMs: 4_000, stepMs: 5_000 },
} as const satisfies Record<string, FalSpeed>;

/** A generated file the mock serves, as fal's CDN does, until it expires. */
export interface StoredFile {
  bytes: Uint8Array;
  expiresMs: number | null;
}

export type FalMockGenerator = Pick<
  Generator,
  'imageToGlb' | 'viewsToGlb' | 'promptToGlb' | 'isInputError'
>;

export interface RunnerDeps {
  now: () => number;
  speed: FalSpeed;
  /** Runners: how many requests are IN_PROGRESS at once (fal's concurrency limit). */
  slots: Limiter;
  generator: FalMockGenerator;
  imageBytes: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  files: Map<string, StoredFile>;
  /** Where the mock is reached (for file URLs). */
  baseUrl: string;
  charge: (key: string, amount: number) => void;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

let seq = 0;

export function newRequest(
  key: string,
  model: FalMockModel,
  input: Record<string, unknown>,
  now: number,
  lifecycleS: number | null,
): FalRequest {
  return {
    id: randomUUID(),
    key,
    model,
    input,
    status: 'IN_QUEUE',
    seq: seq++,
    createdMs: now,
    logs: [],
    lifecycleS,
  };
}

/** The number of queued requests ahead of `req` (0: next). */
export function queuePosition(req: FalRequest, all: Iterable<FalRequest>): number {
  let ahead = 0;
  for (const other of all) {
    if (other.status === 'IN_QUEUE' && other.seq < req.seq) ahead++;
  }
  return ahead;
}

const TRIGGER_FAIL = 'mock:fail';

function log(deps: RunnerDeps, req: FalRequest, message: string, level: FalLog['level'] = 'INFO') {
  req.logs.push({ message, level, source: 'USER', timestamp: new Date(deps.now()).toISOString() });
}

/** Runs one request from IN_QUEUE to COMPLETED; never throws. */
export async function runRequest(
  deps: RunnerDeps,
  req: FalRequest,
  signal: AbortSignal,
): Promise<void> {
  try {
    await deps.sleep(deps.speed.queueMs, signal);
    await deps.slots(async () => {
      if (req.status !== 'IN_QUEUE') return; // cancelled while it waited
      req.status = 'IN_PROGRESS';
      req.startedMs = deps.now();
      const [glb] = await Promise.all([generate(deps, req, signal), printLogs(deps, req, signal)]);
      finish(deps, req, glb);
    });
  } catch (err) {
    if (signal.aborted) return;
    fail(deps, req, failureOf(deps, req, err));
  }
}

async function printLogs(deps: RunnerDeps, req: FalRequest, signal: AbortSignal) {
  for (const line of req.model.logs) {
    log(deps, req, line);
    await deps.sleep(deps.speed.stepMs, signal);
  }
}

async function generate(
  deps: RunnerDeps,
  req: FalRequest,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const urls = req.model.images(req.input);
  if (!Array.isArray(urls)) throw new Error('input checked at submit');
  const images = await Promise.all(urls.map((url) => deps.imageBytes(url, signal)));
  if (JSON.stringify(req.input).includes(TRIGGER_FAIL)) {
    // Fails after the runner has started, as a crashed runner would.
    await deps.sleep(deps.speed.stepMs, signal);
    throw new TriggeredFailure();
  }
  const [first] = images;
  if (req.model.kind === 'views' && images.length >= 2) {
    return deps.generator.viewsToGlb(images.slice(0, 4), {}, 'draft');
  }
  return deps.generator.imageToGlb(first ?? new Uint8Array(), {}, 'draft');
}

class TriggeredFailure extends Error {}

function finish(deps: RunnerDeps, req: FalRequest, glb: Uint8Array) {
  const now = deps.now();
  const token = randomBytes(12).toString('base64url');
  deps.files.set(token, {
    bytes: glb,
    expiresMs: req.lifecycleS === null ? null : now + req.lifecycleS * 1000,
  });
  const file: FalFile = {
    url: `${deps.baseUrl}/files/${token}/model.glb`,
    content_type: 'model/gltf-binary',
    file_name: 'model.glb',
    file_size: glb.byteLength,
  };
  const seconds = (now - (req.startedMs ?? now)) / 1000;
  req.result = req.model.output(file, Math.floor(Math.random() * 2 ** 31), seconds);
  deps.charge(req.key, req.model.price(req.input));
  req.completedMs = now;
  req.status = 'COMPLETED';
}

function fail(deps: RunnerDeps, req: FalRequest, failure: Failure) {
  log(deps, req, failure.error, 'ERROR');
  req.failure = failure;
  req.completedMs = deps.now();
  req.status = 'COMPLETED';
}

/** What went wrong, in fal's words, and whether fal charges for it. */
function failureOf(deps: RunnerDeps, req: FalRequest, err: unknown): Failure {
  if (err instanceof ImageFetchError) {
    // A rejected input is a 422, which fal "may still" charge: the mock always does (the worse
    // case, so a balance Kiln derives is never more than the account holds).
    deps.charge(req.key, req.model.price(req.input));
    const field = req.model.kind === 'views' ? 'image_urls' : imageField(req);
    return unprocessable(field, err.message, 'file_download_error');
  }
  if (deps.generator.isInputError(err)) {
    deps.charge(req.key, req.model.price(req.input));
    const message = err instanceof Error ? err.message : 'The image could not be used.';
    return unprocessable(imageField(req), message, 'image_load_error');
  }
  // A crashed runner (the `mock:fail` trigger, or anything unexpected): fal says "Server errors
  // (HTTP 500+) are never charged."
  const detail = 'Internal server error';
  return {
    status: 500,
    body: { detail, error_type: 'runner_server_error' },
    error: detail,
    errorType: 'runner_server_error',
  };
}

const imageField = (req: FalRequest) =>
  'input_image_url' in req.input ? 'input_image_url' : 'image_url';

function unprocessable(field: string, msg: string, type: string): Failure {
  return {
    status: 422,
    body: { detail: [{ loc: ['body', field], msg, type }] },
    error: msg,
    errorType: type,
  };
}

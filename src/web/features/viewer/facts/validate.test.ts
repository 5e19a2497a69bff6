import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { photoPath } from '../../../../testing/fixtures.ts';
import { imageToGlb } from '../../../../generator/index.ts';
import { MAX_ISSUES, SUMMARY_MESSAGES } from './run-validator.ts';
import { validateGlb } from './validate.ts';
import type { ValidateRequest, ValidateResponse } from './validate-worker.ts';

/** The JSON and BIN chunks of a GLB (assumes a well-formed one). */
function splitGlb(glb: Uint8Array): { json: Record<string, unknown>; bin: Uint8Array | null } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as Record<
    string,
    unknown
  >;
  const at = 20 + jsonLength;
  const bin = at + 8 <= glb.length ? glb.subarray(at + 8, at + 8 + view.getUint32(at, true)) : null;
  return { json, bin };
}

/** A GLB of `json` and an optional BIN chunk, padded as the spec asks. */
function joinGlb(json: unknown, bin: Uint8Array | null): Uint8Array {
  const pad = (n: number) => (4 - (n % 4)) % 4;
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = text.length + pad(text.length);
  const binLength = bin ? bin.length + pad(bin.length) : 0;
  const total = 20 + jsonLength + (bin ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  if (bin) {
    view.setUint32(20 + jsonLength, binLength, true);
    view.setUint32(24 + jsonLength, 0x004e4942, true);
    out.set(bin, 28 + jsonLength);
  }
  return out;
}

let kilnGlb: Uint8Array;

beforeAll(async () => {
  kilnGlb = await imageToGlb(new Uint8Array(await readFile(photoPath('chair.png'))));
});

describe('validateGlb without a Worker (Node: in this thread)', () => {
  it('finds no error in a Kiln image-to-3D GLB', async () => {
    const before = kilnGlb.slice();
    const summary = await validateGlb(kilnGlb);
    expect(summary.errors, JSON.stringify(summary.messages)).toBe(0);
    expect(summary.validatorVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(summary.truncated).toBe(false);
    expect(summary.messages.length).toBeLessThanOrEqual(SUMMARY_MESSAGES);
    expect(kilnGlb).toEqual(before);
  });

  it('reports an accessor whose count runs past its buffer view', async () => {
    const { json, bin } = splitGlb(kilnGlb);
    const mesh = (json.meshes as { primitives: { indices: number }[] }[])[0]!;
    const accessors = json.accessors as { count: number }[];
    accessors[mesh.primitives[0]!.indices]!.count += 300;
    const summary = await validateGlb(joinGlb(json, bin));
    expect(summary.errors).toBeGreaterThan(0);
    const first = summary.messages[0]!;
    expect(first.code).toMatch(/^[A-Z0-9_]+$/);
    expect(first.severity).toBe('error');
    expect(summary.messages.map((m) => m.code)).toContain('ACCESSOR_TOO_LONG');
    expect(summary.messages.find((m) => m.code === 'ACCESSOR_TOO_LONG')!.pointer).toMatch(
      /^\/accessors\/\d+/,
    );
  });

  it('reports indices out of range', async () => {
    const { json, bin } = splitGlb(kilnGlb);
    const mesh = (json.meshes as { primitives: { attributes: Record<string, number> }[] }[])[0]!;
    const accessors = json.accessors as { count: number }[];
    // Every vertex attribute claims fewer vertices than the indices refer to.
    for (const index of Object.values(mesh.primitives[0]!.attributes)) accessors[index]!.count = 3;
    const summary = await validateGlb(joinGlb(json, bin));
    expect(summary.errors).toBeGreaterThan(0);
    expect(summary.messages.map((m) => m.code)).toContain('ACCESSOR_INDEX_OOB');
  });

  it('keeps the first 10 of at most 100 issues, and says when the validator stopped', async () => {
    const { json, bin } = splitGlb(kilnGlb);
    // 150 unused accessors: an info each (UNUSED_OBJECT), beyond the validator's limit.
    const accessors = json.accessors as Record<string, unknown>[];
    for (let i = 0; i < 150; i++)
      accessors.push({ componentType: 5126, count: 1, type: 'SCALAR', min: [0], max: [0] });
    const summary = await validateGlb(joinGlb(json, bin));
    expect(summary.truncated).toBe(true);
    expect(summary.messages).toHaveLength(SUMMARY_MESSAGES);
    expect(summary.errors + summary.warnings + summary.infos + summary.hints).toBe(MAX_ISSUES);
  });

  it('resolves with errors, not a rejection, for bytes that are not a GLB', async () => {
    const text = await validateGlb(new TextEncoder().encode('{"asset":{"version":"2.0"}}'));
    expect(text.errors).toBeGreaterThan(0);
    expect(text.messages[0]).toMatchObject({ code: 'GLB_INVALID_MAGIC', severity: 'error' });
    const empty = await validateGlb(new Uint8Array(0));
    expect(empty.errors).toBe(1);
    expect(empty.messages[0]!.code).toBe('GLB_UNEXPECTED_END_OF_HEADER');
  });

  it('accepts a Node Buffer and a view into a larger buffer', async () => {
    const host = new Uint8Array(kilnGlb.length + 16);
    host.set(kilnGlb, 8);
    expect((await validateGlb(host.subarray(8, 8 + kilnGlb.length))).errors).toBe(0);
    expect((await validateGlb(Buffer.from(kilnGlb))).errors).toBe(0);
  });

  it('rejects when the signal is already aborted', async () => {
    await expect(validateGlb(kilnGlb, { signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });
});

/**
 * A stand-in for the browser's Worker that runs the real validate-worker.ts module in this
 * thread: its `addEventListener('message')` and `postMessage` are wired to this object.
 */
class FakeWorker extends EventTarget {
  static instances: FakeWorker[] = [];
  static behaviour: 'run' | 'fail-to-load' | 'hang' = 'run';
  terminated = false;
  transferred: Transferable[] = [];
  sent: ValidateRequest | undefined;

  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    super();
    FakeWorker.instances.push(this);
    if (FakeWorker.behaviour === 'fail-to-load')
      queueMicrotask(() =>
        this.dispatchEvent(Object.assign(new Event('error'), { message: 'SyntaxError: nope' })),
      );
  }

  postMessage(message: ValidateRequest, transfer: Transferable[] = []): void {
    this.sent = message;
    this.transferred = transfer;
    if (FakeWorker.behaviour !== 'run') return;
    void runWorkerModule(this, message);
  }

  terminate(): void {
    this.terminated = true;
  }
}

/** Loads validate-worker.ts against a fake worker scope and hands it `message`. */
async function runWorkerModule(worker: FakeWorker, message: ValidateRequest): Promise<void> {
  let listener: ((event: MessageEvent<ValidateRequest>) => void) | undefined;
  vi.stubGlobal('addEventListener', (type: string, fn: typeof listener) => {
    if (type === 'message') listener = fn;
  });
  vi.stubGlobal('postMessage', (response: ValidateResponse) =>
    worker.dispatchEvent(new MessageEvent('message', { data: response })),
  );
  vi.resetModules();
  await import('./validate-worker.ts');
  listener!(new MessageEvent('message', { data: message }));
}

describe('validateGlb with a Worker (the browser path)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeWorker.instances = [];
    FakeWorker.behaviour = 'run';
  });

  it('starts a module worker on validate-worker.ts, transfers a copy and terminates it', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const bytes = kilnGlb.slice();
    const summary = await validateGlb(bytes);
    expect(summary.errors).toBe(0);
    expect(FakeWorker.instances).toHaveLength(1);
    const worker = FakeWorker.instances[0]!;
    expect(worker.url.pathname).toMatch(/\/facts\/validate-worker\.ts$/);
    expect(worker.options).toEqual({ type: 'module' });
    // The copy's buffer went over; the caller's bytes are intact and still attached.
    expect(worker.transferred).toEqual([worker.sent!.bytes.buffer]);
    expect(worker.sent!.bytes.buffer).not.toBe(bytes.buffer);
    expect(bytes.byteLength).toBe(kilnGlb.byteLength);
    expect(bytes).toEqual(kilnGlb);
    expect(worker.terminated).toBe(true);
  });

  it('starts a fresh worker for each report', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    // One after the other: the fake scope's postMessage is a global, shared by both.
    const a = await validateGlb(kilnGlb);
    const b = await validateGlb(new TextEncoder().encode('this is not a GLB at all'));
    expect(a.errors).toBe(0);
    expect(b.messages[0]!.code).toBe('GLB_INVALID_MAGIC');
    expect(FakeWorker.instances).toHaveLength(2);
    expect(FakeWorker.instances.every((w) => w.terminated)).toBe(true);
  });

  it('rejects with a clear message when the worker fails', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    FakeWorker.behaviour = 'fail-to-load';
    await expect(validateGlb(kilnGlb)).rejects.toThrow(
      'the glTF validator worker failed: SyntaxError: nope',
    );
    expect(FakeWorker.instances[0]!.terminated).toBe(true);
  });

  it('rejects with the worker’s message when the validator cannot run', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    FakeWorker.behaviour = 'hang';
    const pending = validateGlb(kilnGlb);
    await vi.waitFor(() => expect(FakeWorker.instances[0]?.sent).toBeDefined());
    const failure: ValidateResponse = { ok: false, message: 'gltf-validator could not validate' };
    FakeWorker.instances[0]!.dispatchEvent(new MessageEvent('message', { data: failure }));
    await expect(pending).rejects.toThrow('gltf-validator could not validate');
    expect(FakeWorker.instances[0]!.terminated).toBe(true);
  });

  it('terminates the worker when the signal aborts', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    FakeWorker.behaviour = 'hang';
    const controller = new AbortController();
    const pending = validateGlb(kilnGlb, { signal: controller.signal });
    await vi.waitFor(() => expect(FakeWorker.instances[0]?.sent).toBeDefined());
    controller.abort(new Error('the model changed'));
    await expect(pending).rejects.toThrow('the model changed');
    expect(FakeWorker.instances[0]!.terminated).toBe(true);
  });
});

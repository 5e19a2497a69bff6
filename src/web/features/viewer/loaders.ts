// Loading GLBs for the viewer: the bytes are fetched (with progress, see model-bytes.ts) and kept,
// so the facts panel, the validator and "Download original" read exactly what was loaded; three's
// GLTFLoader then parses them with Draco, KTX2 (Basis) and Meshopt decoders. Each decoder's code
// is imported only when a model uses it, and the Draco and Basis decoders are served by Kiln under
// /decoders/ (see vite.config.ts). Nothing comes from another origin.
import {
  Line,
  type BufferGeometry,
  Mesh,
  Points,
  Texture,
  type Material,
  type Object3D,
  type WebGLRenderer,
} from 'three';
import type { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import type { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';
import type { CompressedTexture } from 'three';
import { ModelLoadError, take } from './model-bytes.ts';
import { warmContext } from './webgl-warmup.ts';
import { GLB_HEADER_BYTES, hasGlbMagic } from '../../../formats/index.ts';

const DECODERS = `${import.meta.env.BASE_URL}decoders/`;

/** A parsed model and the bytes it came from. */
export interface LoadedModel {
  url: string;
  gltf: GLTF;
  bytes: Uint8Array;
}

/**
 * Stands in for three's KTX2Loader, which (with its zstd decoder) weighs about as much as the
 * rest of the loaders together: it is imported, and the Basis transcoder fetched, only when a
 * model has KTX2 textures. GLTFLoader calls `parse` (embedded images) or `load` (external ones).
 */
class LazyKTX2Loader {
  readonly isKTX2Loader = true;
  #renderer: WebGLRenderer | undefined;
  // Loads that began before any viewer had a renderer (see preloadModel) wait here for one:
  // which compressed formats to transcode to depends on the GPU.
  #waiting: ((gl: WebGLRenderer) => void)[] = [];
  #loader: Promise<KTX2Loader> | undefined;

  get renderer(): WebGLRenderer | undefined {
    return this.#renderer;
  }

  set renderer(gl: WebGLRenderer | undefined) {
    this.#renderer = gl;
    if (gl) for (const resolve of this.#waiting.splice(0)) resolve(gl);
  }

  #rendererReady(): Promise<WebGLRenderer> {
    const gl = this.#renderer;
    if (gl) return Promise.resolve(gl);
    // Before any renderer, the context the entry started (which the first viewer's renderer
    // adopts) answers the same question: detectSupport reads only `extensions`.
    const early = warmContext();
    if (early) {
      const extensions = {
        has: (name: string) => early.getExtension(name) !== null,
        get: (name: string) => early.getExtension(name) as unknown,
      };
      return Promise.resolve({ extensions } as unknown as WebGLRenderer);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Fetches the transcoder now (a model's JSON says it has KTX2 textures), before any renderer. */
  warm(): void {
    this.#module()
      .then((loader) => loader.init())
      .catch(() => undefined);
  }

  #get(): Promise<KTX2Loader> {
    return Promise.all([this.#module(), this.#rendererReady()]).then(([loader, gl]) =>
      loader.detectSupport(gl),
    );
  }

  #module(): Promise<KTX2Loader> {
    this.#loader ??= import('three/examples/jsm/loaders/KTX2Loader.js').then(({ KTX2Loader }) => {
      const loader = new KTX2Loader().setTranscoderPath(`${DECODERS}basis/`);
      // KTX2Loader runs its workers from a blob: URL, which inherits the page's CSP (no eval);
      // Basis' transcoder needs eval (embind). Kiln serves the same worker as a file with a CSP
      // of its own (vite.config.ts, src/server/app.ts): use that instead.
      const init = loader.init.bind(loader);
      const patched = loader as unknown as { workerSourceURL: string; init: () => Promise<void> };
      patched.init = () =>
        init().then(() => {
          if (!patched.workerSourceURL.startsWith('blob:')) return;
          URL.revokeObjectURL(patched.workerSourceURL);
          patched.workerSourceURL = `${DECODERS}basis/ktx2-worker.js`;
        });
      return loader;
    });
    return this.#loader;
  }

  parse(
    buffer: ArrayBuffer,
    onLoad: (t: CompressedTexture) => void,
    onError: (e: unknown) => void,
  ) {
    this.#get().then((loader) => loader.parse(buffer, onLoad, onError), onError);
  }

  load(
    url: string,
    onLoad: (t: CompressedTexture) => void,
    onProgress: ((e: ProgressEvent) => void) | undefined,
    onError: (e: unknown) => void,
  ) {
    this.#get().then((loader) => loader.load(url, onLoad, onProgress, onError), onError);
  }
}

/**
 * Stands in for three's DRACOLoader: the loader is imported, and the Draco decoder fetched, when
 * a model has Draco meshes (GLTFLoader then calls `preload`, and `decodeDracoFile` per mesh).
 */
class LazyDRACOLoader {
  #loader: Promise<DRACOLoader> | undefined;

  #get(): Promise<DRACOLoader> {
    this.#loader ??= import('three/examples/jsm/loaders/DRACOLoader.js').then(({ DRACOLoader }) =>
      new DRACOLoader().setDecoderPath(`${DECODERS}draco/`).preload(),
    );
    return this.#loader;
  }

  preload(): this {
    this.#get().catch(() => undefined);
    return this;
  }

  decodeDracoFile(...args: [ArrayBuffer, (geometry: BufferGeometry) => void, ...unknown[]]): void {
    // (buffer, onLoad, attributeIDs, attributeTypes, vertexColorSpace, onError): untyped in
    // @types/three.
    const onError = typeof args[5] === 'function' ? (args[5] as (e: unknown) => void) : undefined;
    this.#get().then(
      (loader) =>
        (
          loader as unknown as { decodeDracoFile: (...a: unknown[]) => Promise<void> }
        ).decodeDracoFile(...args),
      onError,
    );
  }
}

/**
 * Stands in for meshoptimizer's decoder (GLTFLoader calls `decodeGltfBufferAsync` for each
 * EXT_meshopt_compression buffer view): imported with the first such model.
 */
const lazyMeshoptDecoder = {
  supported: typeof WebAssembly === 'object',
  async decodeGltfBufferAsync(
    count: number,
    stride: number,
    source: Uint8Array,
    mode: string,
    filter?: string,
  ): Promise<Uint8Array> {
    const { MeshoptDecoder } = await import('three/examples/jsm/libs/meshopt_decoder.module.js');
    await MeshoptDecoder.ready;
    return MeshoptDecoder.decodeGltfBufferAsync(count, stride, source, mode, filter);
  },
};

const dracoLoader = new LazyDRACOLoader();
const ktx2Loader = new LazyKTX2Loader();

/**
 * Starts the decoders a model's extensions call for, while the rest of its bytes download, not
 * after GLTFLoader has read them all (on a slow network, seconds apart).
 */
function warmDecoders(extensions: readonly string[]): void {
  if (extensions.includes('KHR_draco_mesh_compression')) dracoLoader.preload();
  if (extensions.includes('KHR_texture_basisu')) ktx2Loader.warm();
  if (
    extensions.includes('EXT_meshopt_compression') ||
    extensions.includes('KHR_meshopt_compression')
  )
    import('three/examples/jsm/libs/meshopt_decoder.module.js')
      .then(({ MeshoptDecoder }) => MeshoptDecoder.ready)
      .catch(() => undefined);
}

function gltfLoader(): GLTFLoader {
  return new GLTFLoader()
    .setDRACOLoader(dracoLoader as unknown as DRACOLoader)
    .setKTX2Loader(ktx2Loader as unknown as KTX2Loader)
    .setMeshoptDecoder(lazyMeshoptDecoder as unknown as typeof MeshoptDecoder);
}

/** A viewer's renderer, for the KTX2 loader to choose the formats it transcodes to. */
export function attachRenderer(gl: WebGLRenderer): void {
  ktx2Loader.renderer = gl;
}

/** The renderer is going away: the KTX2 loader must not keep (or use) it. */
export function releaseRenderer(gl: WebGLRenderer): void {
  if (ktx2Loader.renderer === gl) ktx2Loader.renderer = undefined;
}

/** True when the bytes start like a binary glTF file. */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= GLB_HEADER_BYTES && hasGlbMagic(bytes);
}

async function load(url: string, progress: ProgressSink): Promise<LoadedModel> {
  const download = take(url);
  void download.extensions.then(warmDecoders);
  const unsubscribe = download.onProgress((p) => progress.report(p));
  const bytes = await download.bytes.finally(unsubscribe);
  if (!isGlb(bytes))
    throw new ModelLoadError('the file is not a GLB (binary glTF): it does not start with “glTF”.');
  // GLTFLoader may keep views into the buffer it is given: give it its own copy.
  const buffer = bytes.slice().buffer;
  const gltf = await gltfLoader().parseAsync(buffer, '');
  return { url, gltf, bytes };
}

/** Whoever shows a load in progress listens here; the latest listener wins. */
class ProgressSink {
  listener: ((percent: number) => void) | undefined;
  last: number | null = null;
  report(percent: number) {
    this.last = percent;
    this.listener?.(percent);
  }
}

interface Entry {
  promise: Promise<LoadedModel | Error>;
  progress: ProgressSink;
  /** The model, once loaded. */
  model?: LoadedModel;
}

// Loads are cached by URL: a model shown by two viewers (or re-rendered) is fetched and parsed
// once. Failed loads are cached as well (as their Error, never thrown: react-three-fiber reports
// every error thrown in its tree as uncaught) until `forget`.
const cache = new Map<string, Entry>();

function entryOf(url: string): Entry {
  let entry = cache.get(url);
  if (!entry) {
    const progress = new ProgressSink();
    const created: Entry = {
      progress,
      promise: load(url, progress).then(
        (model) => (created.model = model),
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      ),
    };
    entry = created;
    cache.set(url, entry);
  }
  return entry;
}

/** The load of `url` (started if needed), for React's `use`. */
export function loadModel(
  url: string,
  onProgress?: (percent: number) => void,
): Promise<LoadedModel | Error> {
  const entry = entryOf(url);
  if (onProgress) {
    entry.progress.listener = onProgress;
    if (entry.progress.last !== null) onProgress(entry.progress.last);
  }
  return entry.promise;
}

const PRELOAD_KEEP_MS = 60_000;

/**
 * Starts loading `url` before a viewer asks for it (the /viewer page does, as soon as this code
 * is in: see preload.ts), so that fetching, decoding and parsing overlap with starting WebGL. A
 * model no viewer has taken within a minute is let go.
 */
export function preloadModel(url: string): void {
  if (cache.has(url)) return;
  const entry = entryOf(url);
  setTimeout(() => {
    const model = entry.model;
    if (cache.get(url) !== entry || (model && users.has(model))) return;
    forget(url);
    if (model) disposeObject(model.gltf.scene);
  }, PRELOAD_KEEP_MS);
}

/** Forgets a URL's cached load (or failed load), so the next render fetches it again. */
export function forget(url: string): void {
  cache.delete(url);
}

/** Frees the GPU and image memory held by a loaded model. */
function disposeObject(root: Object3D): void {
  const textures = new Set<Texture>();
  const materials = new Set<Material>();
  root.traverse((node) => {
    if (!(node instanceof Mesh || node instanceof Line || node instanceof Points)) return;
    node.geometry.dispose();
    const list: unknown[] = Array.isArray(node.material) ? node.material : [node.material];
    for (const material of list) if (material) materials.add(material as Material);
  });
  for (const material of materials) {
    for (const value of Object.values(material)) if (value instanceof Texture) textures.add(value);
    material.dispose();
  }
  for (const texture of textures) {
    texture.dispose();
    // GLTFLoader decodes images to ImageBitmaps, which are not garbage-collected until closed.
    const data: unknown = texture.source.data;
    if (typeof ImageBitmap !== 'undefined' && data instanceof ImageBitmap) data.close();
  }
}

// Loaded models may be shown by several viewers at once: count the viewers showing each one and
// free it when the last goes. Freeing waits a task, because StrictMode (and Suspense) unmount
// and remount at once; only what stays unused is freed.
const users = new Map<LoadedModel, number>();

export function acquire(model: LoadedModel): void {
  users.set(model, (users.get(model) ?? 0) + 1);
}

export function release(model: LoadedModel): void {
  const left = (users.get(model) ?? 1) - 1;
  if (left > 0) {
    users.set(model, left);
    return;
  }
  users.delete(model);
  setTimeout(() => {
    if (users.has(model)) return;
    if (cache.get(model.url)?.model === model) forget(model.url);
    disposeObject(model.gltf.scene);
  }, 0);
}

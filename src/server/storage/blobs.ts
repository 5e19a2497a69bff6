import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { Readable } from 'node:stream';

/** What a blob is: an uploaded input image, an archived GLB, or a picture of an archived model. */
export type BlobKind = 'uploads' | 'assets' | 'thumbnails';

export interface StoredBlob {
  sha256: string;
  bytes: number;
}

/** Bytes `start` to `end` inclusive, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

interface OpenedBlob {
  stream: ReadableStream<Uint8Array>;
  /** The whole blob's size. */
  bytes: number;
  /** The part the stream holds, when a range was asked for. */
  range?: ByteRange;
}

/**
 * Content-addressed blob storage. One implementation now (files in DATA_DIR);
 * the interface is what an S3-compatible store would implement too.
 */
export interface BlobStore {
  /** Stores the bytes under their SHA-256 (idempotent: the same bytes, the same name). */
  put(kind: BlobKind, bytes: Uint8Array, ext: string): Promise<StoredBlob>;
  /** The bytes, or undefined when absent. */
  get(kind: BlobKind, sha256: string, ext: string): Promise<Uint8Array | undefined>;
  /**
   * A web stream of the bytes (or of `range` of them, clamped to the blob) with the blob's size,
   * or undefined when absent.
   */
  open(
    kind: BlobKind,
    sha256: string,
    ext: string,
    range?: ByteRange,
  ): Promise<OpenedBlob | undefined>;
  /** Removes the bytes (no-op when absent). */
  delete(kind: BlobKind, sha256: string, ext: string): Promise<void>;
}

export const SHA256_RE = /^[a-f0-9]{64}$/;
export const EXT_RE = /^[a-z0-9]{1,8}$/;

/** A range within a blob of `size` bytes (an empty blob has none). */
export function clampRange(range: ByteRange, size: number): ByteRange | undefined {
  if (size === 0 || range.start >= size) return undefined;
  return { start: range.start, end: Math.min(range.end, size - 1) };
}

/** The storage key of a blob: its kind, a two-character fan-out and its SHA-256. */
export function blobKey(kind: BlobKind, sha256: string, ext: string): string {
  if (!SHA256_RE.test(sha256) || !EXT_RE.test(ext)) throw new Error('invalid blob name');
  return `${kind}/${sha256.slice(0, 2)}/${sha256}.${ext}`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function diskBlobStore(root: string): BlobStore {
  const pathOf = (kind: BlobKind, sha: string, ext: string) => join(root, blobKey(kind, sha, ext));
  const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';
  return {
    async put(kind, bytes, ext) {
      const sha256 = sha256Hex(bytes);
      const final = pathOf(kind, sha256, ext);
      try {
        const st = await stat(final);
        if (st.size === bytes.byteLength) return { sha256, bytes: st.size };
      } catch (err) {
        if (!missing(err)) throw err;
      }
      await mkdir(join(root, kind, sha256.slice(0, 2)), { recursive: true });
      // Atomic (never half a blob under its final name), with a temporary name per write.
      await writeFileAtomic(final, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        mode: 0o600,
        fsync: false,
      });
      return { sha256, bytes: bytes.byteLength };
    },
    async get(kind, sha, ext) {
      if (!SHA256_RE.test(sha) || !EXT_RE.test(ext)) return undefined;
      try {
        return new Uint8Array(await readFile(pathOf(kind, sha, ext)));
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
    async open(kind, sha, ext, range) {
      if (!SHA256_RE.test(sha) || !EXT_RE.test(ext)) return undefined;
      const path = pathOf(kind, sha, ext);
      try {
        const st = await stat(path);
        const part = range && clampRange(range, st.size);
        const stream = Readable.toWeb(
          createReadStream(path, part ? { start: part.start, end: part.end } : {}),
        ) as ReadableStream<Uint8Array>;
        return { stream, bytes: st.size, ...(part ? { range: part } : {}) };
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
    async delete(kind, sha, ext) {
      if (!SHA256_RE.test(sha) || !EXT_RE.test(ext)) return;
      await rm(pathOf(kind, sha, ext), { force: true });
    },
  };
}

/**
 * The blob store could not be reached or written (a stopped bucket, a full disk): requests that
 * need it get a 503 that names the file store, not the database.
 */
class BlobStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      `the blob store is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'BlobStoreUnavailableError';
  }
}

/** Codes and statuses that say the store is not there (or full) right now. */
const BLOB_UNAVAILABLE =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ENOSPC|EDQUOT|EIO|EROFS|TimeoutError|RequestTimeout|ServiceUnavailable|SlowDown|InternalError)$/;

/** True for an error that says the blob store cannot be used just now. */
export function isBlobStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof BlobStoreUnavailableError) return true;
    const { code, name, $metadata } = e as {
      code?: unknown;
      name?: unknown;
      $metadata?: { httpStatusCode?: number };
    };
    if (typeof code === 'string' && BLOB_UNAVAILABLE.test(code)) return true;
    if (typeof name === 'string' && BLOB_UNAVAILABLE.test(name)) return true;
    if (($metadata?.httpStatusCode ?? 0) >= 500) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** True for an error the guarded blob store raised for an outage (`guardedBlobs`), at any depth. */
export function isBlobOutage(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof BlobStoreUnavailableError) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The store, its outages thrown as BlobStoreUnavailableError (the 503 then says which store). */
export function guardedBlobs(store: BlobStore): BlobStore {
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw isBlobStoreUnavailable(err) ? new BlobStoreUnavailableError(err) : err;
    }
  };
  return {
    put: (kind, bytes, ext) => guard(() => store.put(kind, bytes, ext)),
    get: (kind, sha, ext) => guard(() => store.get(kind, sha, ext)),
    open: (kind, sha, ext, range) => guard(() => store.open(kind, sha, ext, range)),
    delete: (kind, sha, ext) => guard(() => store.delete(kind, sha, ext)),
  };
}

import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Input images a create sent inline (data: URIs), kept by content until their task ends, so the
 * task row holds a short `input:sha256` reference instead of megabytes of base64.
 */
export interface InputFiles {
  /** Stores the bytes; returns their reference (`input:` + SHA-256). */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes behind a reference, or undefined when there are none. */
  get(ref: string): Promise<Uint8Array | undefined>;
  delete(ref: string): Promise<void>;
}

export const INPUT_REF = /^input:([a-f0-9]{64})$/;

/** The reference a blob of these bytes has (content-addressed). */
export const refOf = (bytes: Uint8Array) =>
  `input:${createHash('sha256').update(bytes).digest('hex')}`;

export function diskInputs(dir: string): InputFiles {
  const path = (ref: string) => {
    const sha = INPUT_REF.exec(ref)?.[1];
    return sha ? join(dir, `${sha}.bin`) : undefined;
  };
  return {
    async put(bytes) {
      const ref = refOf(bytes);
      const final = path(ref)!;
      await mkdir(dir, { recursive: true });
      // Atomic, with a temporary name of its own per write (two at once never share one).
      await writeFileAtomic(final, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        mode: 0o600,
        fsync: false,
      });
      return ref;
    },
    async get(ref) {
      const file = path(ref);
      if (!file) return undefined;
      try {
        return new Uint8Array(await readFile(file));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(ref) {
      const file = path(ref);
      if (file) await rm(file, { force: true });
    },
  };
}

export function memoryInputs(): InputFiles {
  const files = new Map<string, Uint8Array>();
  return {
    put(bytes) {
      const ref = refOf(bytes);
      files.set(ref, bytes);
      return Promise.resolve(ref);
    },
    get: (ref) => Promise.resolve(files.get(ref)),
    delete(ref) {
      files.delete(ref);
      return Promise.resolve();
    },
  };
}

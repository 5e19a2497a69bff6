import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Where the mock keeps the GLB of each completed task. */
export interface ModelFiles {
  save(taskId: string, glb: Uint8Array): Promise<void>;
  /** The GLB of a task, or undefined when there is none. */
  read(taskId: string): Promise<Uint8Array | undefined>;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function diskModelFiles(dir: string): ModelFiles {
  const path = (id: string) => {
    if (!SAFE_ID.test(id)) throw new Error('unsafe task id');
    return join(dir, `${id}.glb`);
  };
  return {
    async save(taskId, glb) {
      await mkdir(dir, { recursive: true });
      const final = path(taskId);
      // Atomic: a crash never leaves half a GLB under the final name.
      await writeFileAtomic(final, Buffer.from(glb.buffer, glb.byteOffset, glb.byteLength), {
        fsync: false,
      });
    },
    async read(taskId) {
      if (!SAFE_ID.test(taskId)) return undefined;
      try {
        return new Uint8Array(await readFile(path(taskId)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
  };
}

export function memoryModelFiles(): ModelFiles {
  const files = new Map<string, Uint8Array>();
  return {
    save: (id, glb) => {
      files.set(id, glb);
      return Promise.resolve();
    },
    read: (id) => Promise.resolve(files.get(id)),
  };
}

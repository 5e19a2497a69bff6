// Tests only: one behaviour suite for Kiln's storage, run against SQLite (the unit tests) and
// PostgreSQL (the scale tests), so that both dialects answer alike. Each part is a describe block
// of its own, in storage-suite/.
import { describe } from 'vitest';
import type { Storage } from '../server/storage/database.ts';
import { coordinationTests } from './storage-suite/coordination.ts';
import { creditTests } from './storage-suite/credits.ts';
import { idempotencyTests } from './storage-suite/idempotency.ts';
import { libraryTests } from './storage-suite/library.ts';
import { optimiseJobTests } from './storage-suite/optimise-jobs.ts';
import { usingStorage } from './storage-suite/rows.ts';
import { shareTests } from './storage-suite/shares.ts';
import { uploadTests } from './storage-suite/uploads.ts';

export function storageSuite(name: string, open: () => Promise<Storage>) {
  describe(`storage on ${name}`, () => {
    const using = usingStorage(open);
    libraryTests(using);
    shareTests(using);
    creditTests(using);
    idempotencyTests(using);
    uploadTests(using);
    optimiseJobTests(using);
    coordinationTests(using);
  });
}

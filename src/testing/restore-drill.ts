// Tests and scripts only: the restore drill of docs/operations.md, on loopback. A running stack
// is backed up as an operator would (pg_dump of the database, a copy of every object in the
// bucket), restored into a new PostgreSQL and a new bucket, and a new replica on them is asked
// for what the old one served: the library, the models, the uploads, the balance.
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { postgresBin, startPostgres } from './postgres.ts';
import { startS3, type TestS3 } from './s3.ts';
import { spawnEntry } from './spawn-server.ts';
import type { Stack } from './stack.ts';

function client(s3: TestS3): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}

/** `aws s3 sync s3://bucket dir`, for the drill: every object's bytes under its key. */
async function copyBucketTo(s3: TestS3, dir: string): Promise<string[]> {
  const c = client(s3);
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await c.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  for (const key of keys) {
    const got = await c.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    const bytes = await got.Body!.transformToByteArray();
    mkdirSync(dirname(join(dir, key)), { recursive: true });
    writeFileSync(join(dir, key), bytes);
  }
  c.destroy();
  return keys;
}

/** `aws s3 sync dir s3://bucket`. */
async function copyDirToBucket(dir: string, keys: readonly string[], s3: TestS3): Promise<void> {
  const c = client(s3);
  for (const key of keys)
    await c.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: readFileSync(join(dir, key)) }),
    );
  c.destroy();
}

export interface DrillResult {
  objects: number;
  dumpBytes: number;
  /** A replica on the restored database and bucket, to ask; stop it and `cleanup` after. */
  url: string;
  stop(): Promise<void>;
}

/** Backs the stack up, restores it elsewhere, and starts a replica on the copy. */
export async function restoreDrill(stack: Stack): Promise<DrillResult> {
  const bin = postgresBin()!;
  const dir = mkdtempSync(join(tmpdir(), 'kiln-backup-'));
  // 1. Back up: the database (pg_dump, custom format) and the bucket (every object).
  const dump = join(dir, 'kiln.dump');
  execFileSync(join(bin, 'pg_dump'), ['--format=custom', '--file', dump, stack.pg.url]);
  const keys = await copyBucketTo(stack.s3, join(dir, 'bucket'));
  // 2. Restore into a new database and a new bucket.
  const pg = await startPostgres();
  execFileSync(join(bin, 'pg_restore'), ['--no-owner', '--dbname', pg.url, dump]);
  const s3 = await startS3();
  await copyDirToBucket(join(dir, 'bucket'), keys, s3);
  // 3. A replica on the copy, with the same secret (owner ids are HMACs of the keys).
  const replica = await spawnEntry('src/server/main.ts', {
    ...stack.env,
    DATABASE_URL: pg.url,
    ...s3.env,
    DATA_DIR: join(dir, 'replica'),
  });
  return {
    objects: keys.length,
    dumpBytes: readFileSync(dump).byteLength,
    url: replica.url,
    async stop() {
      await replica.stop();
      pg.destroy();
      await s3.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Tests and benches only: an S3-compatible server on loopback (s3rver, files in a temp dir),
// with one bucket. Kiln's S3 code uses only standard calls, path-style, so MinIO, R2 and AWS
// answer it alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { freePort } from './ports.ts';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment a Kiln process needs to use it. */
  env: Record<string, string>;
  /** Stops serving (an outage), keeping what the bucket holds. */
  pause(): Promise<void>;
  /** Serves again on the same port, with what it held. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3(bucket = 'kiln-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'kiln-s3-'));
  const port = await freePort();
  const make = () =>
    new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: true,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
  let server = make();
  let running = true;
  const address = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const creds = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' };
  return {
    endpoint,
    bucket,
    ...creds,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: creds.region,
      S3_ACCESS_KEY_ID: creds.accessKeyId,
      S3_SECRET_ACCESS_KEY: creds.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
    async pause() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async resume() {
      if (running) return;
      server = make();
      await server.run();
      running = true;
    },
    async stop() {
      if (running) await server.close();
      running = false;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

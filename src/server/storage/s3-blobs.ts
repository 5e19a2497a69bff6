import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { EXT_RE, SHA256_RE, blobKey, clampRange, sha256Hex, type BlobStore } from './blobs.ts';

export interface S3Config {
  /** For MinIO, R2 and other S3-compatible stores; AWS S3 without it. */
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `bucket.host/key` (false) or `host/bucket/key` (true: MinIO and most others). */
  forcePathStyle: boolean;
}

const TYPES: Record<string, string> = {
  glb: 'model/gltf-binary',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

const notFound = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** What `read` answers, or undefined when the object is not there; other errors are thrown. */
async function orMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (notFound(err)) return undefined;
    throw err;
  }
}

/** The bucket's client, with the given endpoint and credentials (else the SDK's chain). */
function clientOf(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.accessKeyId && config.secretAccessKey
      ? {
          credentials: {
            accessKeyId: config.accessKeyId,
            secretAccessKey: config.secretAccessKey,
          },
        }
      : {}),
  });
}

/** One bucket through one client. */
interface Target {
  client: S3Client;
  Bucket: string;
}

const valid = (sha: string, ext: string) => SHA256_RE.test(sha) && EXT_RE.test(ext);

/** Blobs written (unless the same bytes are there already) and deleted. */
function writes({ client, Bucket }: Target): Pick<BlobStore, 'put' | 'delete'> {
  return {
    async put(kind, bytes, ext) {
      const sha256 = sha256Hex(bytes);
      const Key = blobKey(kind, sha256, ext);
      const head = await orMissing(() => client.send(new HeadObjectCommand({ Bucket, Key })));
      if (head?.ContentLength === bytes.byteLength) return { sha256, bytes: bytes.byteLength };
      // Large bodies go up in 8 MB parts; a small one as one PutObject.
      await new Upload({
        client,
        params: {
          Bucket,
          Key,
          Body: bytes,
          ContentType: TYPES[ext] ?? 'application/octet-stream',
        },
        partSize: 8 * 1024 * 1024,
        queueSize: 2,
      }).done();
      return { sha256, bytes: bytes.byteLength };
    },

    async delete(kind, sha, ext) {
      if (!valid(sha, ext)) return;
      await client.send(new DeleteObjectCommand({ Bucket, Key: blobKey(kind, sha, ext) }));
    },
  };
}

/** Blobs read whole, or streamed (a range of them, clamped as the disk store does). */
function reads({ client, Bucket }: Target): Pick<BlobStore, 'get' | 'open'> {
  return {
    async get(kind, sha, ext) {
      if (!valid(sha, ext)) return undefined;
      const Key = blobKey(kind, sha, ext);
      return orMissing(async () => {
        const r = await client.send(new GetObjectCommand({ Bucket, Key }));
        return r.Body ? new Uint8Array(await r.Body.transformToByteArray()) : undefined;
      });
    },

    async open(kind, sha, ext, range) {
      if (!valid(sha, ext)) return undefined;
      const Key = blobKey(kind, sha, ext);
      return orMissing(async () => {
        let size: number | undefined;
        let part = range;
        if (range) {
          // The size first, so that the range can be clamped (or refused) as the disk store does.
          const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
          size = head.ContentLength ?? 0;
          part = clampRange(range, size);
        }
        const r = await client.send(
          new GetObjectCommand({
            Bucket,
            Key,
            ...(part ? { Range: `bytes=${part.start}-${part.end}` } : {}),
          }),
        );
        if (!r.Body) return undefined;
        return {
          stream: r.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          bytes: size ?? r.ContentLength ?? 0,
          ...(part ? { range: part } : {}),
        };
      });
    },
  };
}

/**
 * Blobs in an S3-compatible bucket, under content-addressed keys (`assets/ab/ab….glb`), with
 * standard calls only: PutObject (multipart for large bodies, through lib-storage), GetObject
 * (ranged, streamed), HeadObject, DeleteObject.
 */
export function s3BlobStore(config: S3Config): BlobStore {
  const target = { client: clientOf(config), Bucket: config.bucket };
  return { ...writes(target), ...reads(target) };
}

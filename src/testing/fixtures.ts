// Tests, benches and scripts only: where the project's fixtures live. One constant for all.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `fixtures/` at the repository's root. */
// (dirname of this file's path rather than `new URL(…, import.meta.url)`, which Vite rewrites
// into an asset import under jsdom)
const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

/** Real image-to-3D input photos (MIT, TripoSR's examples; licence beside them). */
export const PHOTOS_DIR = join(FIXTURES_DIR, 'photos');

/** The viewer's GLB fixtures, made by scripts/make-viewer-fixtures.ts (not committed). */
export const VIEWER_FIXTURES_DIR = join(FIXTURES_DIR, 'viewer');

/** The photos in PHOTOS_DIR; each shows one object on a transparent background. */
export const PHOTO_NAMES = [
  'chair.png',
  'flamingo.png',
  'hamburger.png',
  'horse.png',
  'robot.png',
  'teapot.png',
] as const;
export type PhotoName = (typeof PHOTO_NAMES)[number];

export function photoPath(name: PhotoName | (string & {})): string {
  return join(PHOTOS_DIR, name);
}

/** A fixture photo's bytes. */
export function readPhoto(name: PhotoName | (string & {})): Uint8Array {
  const b = readFileSync(photoPath(name));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

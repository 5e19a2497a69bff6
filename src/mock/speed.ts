import { z } from 'zod';

/** How long each stage of a mock task lasts, in milliseconds (spec section 3 table). */
export interface SpeedProfile {
  initializing: number;
  downloading: number;
  generating: number;
  processing: number;
  uploading: number;
}

export const SPEED_PROFILES = {
  /** A whole task in about 2 s: for tests. */
  fast: { initializing: 200, downloading: 300, generating: 800, processing: 300, uploading: 300 },
  /** About 35 s, within the 55 s sync window: for demos. */
  realistic: {
    initializing: 2_000,
    downloading: 3_000,
    generating: 20_000,
    processing: 6_000,
    uploading: 3_000,
  },
  /** No waiting at all: for unit tests of the engine. */
  instant: { initializing: 0, downloading: 0, generating: 0, processing: 0, uploading: 0 },
} as const satisfies Record<string, SpeedProfile>;

export const SpeedNameSchema = z.enum(['fast', 'realistic', 'instant']);
export type SpeedName = z.infer<typeof SpeedNameSchema>;

/**
 * The largest image file Kiln takes, 20 MB (20,000,000 bytes: SI, as `formatBytes` counts,
 * decision 0108): an upload (`POST /api/uploads`), an `image_url` the mock fetches, and a file
 * the studio checks before sending it. Every message says it with `formatBytes(IMAGE_MAX_BYTES)`.
 */
export const IMAGE_MAX_BYTES = 20_000_000;

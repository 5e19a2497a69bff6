/**
 * The largest image file Kiln takes, 20 MiB ("20 MB" in the messages, as file managers count):
 * an upload (`POST /api/uploads`), an `image_url` the mock fetches, and a file the studio checks
 * before sending it.
 */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;

/** What the upload route knows when it names a stored upload. */
export interface UploadUrlInfo {
  sha256: string;
  ext: string;
  mime: string;
  /** The stored (normalised) bytes. */
  bytes: Uint8Array;
  /** The origin the upload request arrived on, e.g. `http://127.0.0.1:8080`. */
  origin: string;
}

export type UploadUrlFor = (info: UploadUrlInfo) => string;

export interface UploadUrlConfig {
  /** PUBLIC_URL: the origin (optionally with a path prefix) at which the upstream reaches Kiln. */
  publicUrl?: string | undefined;
  mode: 'mock' | 'upstream';
  /** This server's origin as configured (not as a request's Host header says). */
  ownOrigin?: () => string | undefined;
}

/**
 * The URL handed to the upstream as `image_url` for an upload. The upstream fetches it itself,
 * so it must be reachable from wherever the upstream runs:
 *
 * - PUBLIC_URL set: `${PUBLIC_URL}/api/uploads/{sha256}.{ext}`. The operator said where Kiln is
 *   reachable, so the upstream fetches the stored file (small request bodies, cacheable).
 * - Mock mode: `${ownOrigin}/api/uploads/{sha256}.{ext}`, on the address this server listens on
 *   (loopback for a wildcard HOST). The mock runs in this very process and fetches from the
 *   server's own address, which works offline and needs no configuration; and it is the one
 *   private address the mock's image fetch allows, whatever a request's Host header claims.
 * - Upstream mode without PUBLIC_URL: a `data:` URI with the normalised image in base64. A real
 *   upstream on the internet cannot reach `127.0.0.1` or a LAN address, so a URL would fail at
 *   its "downloading images" stage; the spec takes any URI for `image_url`, and normalised
 *   uploads are at most 2048 px on the long side, so the body stays a few megabytes at worst.
 *   Set PUBLIC_URL (e.g. a tunnel) to send short URLs instead.
 */
export function uploadUrlStrategy(config: UploadUrlConfig): UploadUrlFor {
  const publicUrl = config.publicUrl?.replace(/\/+$/, '');
  if (publicUrl) return ({ sha256, ext }) => `${publicUrl}/api/uploads/${sha256}.${ext}`;
  if (config.mode === 'mock')
    return ({ sha256, ext, origin }) =>
      `${(config.ownOrigin?.() ?? origin).replace(/\/+$/, '')}/api/uploads/${sha256}.${ext}`;
  return ({ mime, bytes }) =>
    `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

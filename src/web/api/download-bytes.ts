// A file's bytes with download progress: the models the viewer shows (Kiln's archived copies,
// or any GLB address /viewer is given). Free of the API client, so /viewer's early start (see
// features/viewer/preload.ts) stays small.

/** An HTTP answer other than 2xx. */
export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    readonly status: number,
    statusText: string,
  ) {
    super(`the server answered ${status}${statusText ? ` (${statusText})` : ''}.`);
  }
}

/** `url`'s bytes; `report` hears the percentage done when the size is known. */
export async function downloadBytes(
  url: string,
  report: (percent: number) => void,
): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new DownloadError(res.status, res.statusText);
  const total = Number(res.headers.get('content-length') ?? 0);
  if (!res.body || !(total > 0)) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    report(Math.min(100, Math.floor((100 * loaded) / total)));
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

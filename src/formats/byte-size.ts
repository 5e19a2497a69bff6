/**
 * How many bytes a file holds, in words, the one way Kiln says it (decision 0108): SI units,
 * 1 kB = 1,000 bytes and 1 MB = 1,000,000 bytes (as browsers' downloads, macOS, iOS, Android and
 * GNOME count), so a 1,400,000-byte model reads "1.4 MB" in the viewer's facts, on the optimise
 * page, in a zip's progress and in the server's messages alike, and the limits, which are round
 * SI numbers (`IMAGE_MAX_BYTES`), read as round numbers ("20 MB").
 */

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/**
 * "512 B", "12.3 kB", "123 kB", "1.4 MB", "20 MB", "2.5 GB": at most three significant digits,
 * a trailing ".0" dropped; "—" for a negative or non-finite count.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1000) return `${Math.round(n)} B`;
  let unit = 0;
  let value = n;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  let text = value < 100 ? value.toFixed(1) : value.toFixed(0);
  // 999,960 B is 999.96 kB: it rounds to "1000", which reads better as "1 MB".
  if (Number(text) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
    text = value.toFixed(1);
  }
  return `${text.replace(/\.0$/, '')} ${UNITS[unit]}`;
}

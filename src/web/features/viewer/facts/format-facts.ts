// Formatting facts for people: byte sizes and counts.

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/**
 * A byte count in SI units (1 kB = 1000 B, as browsers and most OSes show file sizes): "512 B",
 * "12.3 kB", "1.4 MB", "123 MB". Three significant digits at most; "—" for a negative or
 * non-finite value.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1000) return `${Math.round(n)} B`;
  let unit = 0;
  let value = n;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  let text = value < 100 ? value.toFixed(1) : value.toFixed(0);
  // 999,960 B is 999.96 kB: it rounds to "1000", which reads better as "1.0 MB".
  if (Number(text) >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
    text = value.toFixed(1);
  }
  return `${text} ${BYTE_UNITS[unit]}`;
}

const COUNT_FORMATS = new Map<string, Intl.NumberFormat>();

/**
 * A count with thousands separators: "262,144". English by default (the UI's language), or
 * in the given locale; "—" for a non-finite value.
 */
export function formatCount(n: number, locale = 'en-US'): string {
  if (!Number.isFinite(n)) return '—';
  let format = COUNT_FORMATS.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    COUNT_FORMATS.set(locale, format);
  }
  return format.format(n);
}

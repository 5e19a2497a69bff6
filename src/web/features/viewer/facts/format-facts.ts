// Formatting facts for people: counts. (Byte sizes: `formatBytes` of src/formats, decision 0108.)

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

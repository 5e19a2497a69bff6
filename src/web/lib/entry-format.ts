import {
  modelTitle,
  PROVIDER_LABELS,
  providerOfModel,
  type ArchiveOutage,
  type LibraryEntry,
} from '../../contract/index.ts';

/**
 * How a library entry reads: its status badge, its name, a prompt excerpt, its dates.
 * Pure, shared by the gallery and the credits page.
 */

type StatusTone = 'ok' | 'failed' | 'pending' | 'other';

export interface StatusView {
  label: string;
  tone: StatusTone;
}

/** "Completed", "Failed", "In progress 40%", or the upstream's own word, capitalised. */
export function statusView(entry: Pick<LibraryEntry, 'status' | 'progress'>): StatusView {
  switch (entry.status) {
    case 'completed':
      return { label: 'Completed', tone: 'ok' };
    case 'failed':
      return { label: 'Failed', tone: 'failed' };
    case 'pending': {
      const pct = Number.isFinite(entry.progress)
        ? Math.min(100, Math.max(0, Math.round(entry.progress)))
        : 0;
      return { label: `In progress ${pct}%`, tone: 'pending' };
    }
    default: {
      const words = entry.status.replace(/[_-]+/g, ' ').trim();
      return { label: words ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown', tone: 'other' };
    }
  }
}

/** The first `maxWords` words of a prompt, with an ellipsis when there were more. */
export function promptExcerpt(prompt: string, maxWords = 8, maxChars = 80): string {
  const words = prompt.trim().split(/\s+/).filter(Boolean);
  let text = words.slice(0, maxWords).join(' ');
  let cut = words.length > maxWords;
  if (text.length > maxChars) {
    text = text.slice(0, maxChars).replace(/\s+\S*$/, '') || text.slice(0, maxChars);
    cut = true;
  }
  return cut ? `${text}…` : text;
}

/**
 * A task named for screen readers and labels, telling cards apart:
 * `beta-text task “a red vase” from 5 Jan 2025, 14:02` or `gamma task from 5 Jan 2025, 14:02`;
 * a named one starts with its name: `Blue teapot, beta-text task “a red vase” from …`.
 * `when` is the already formatted date.
 */
export function taskLabel(
  entry: Pick<LibraryEntry, 'model' | 'prompt'> & {
    images?: LibraryEntry['images'];
    name?: LibraryEntry['name'];
  },
  when: string,
): string {
  const prompt = entry.prompt?.trim();
  const photo = photoNameOf(entry);
  const subject = prompt ? ` “${promptExcerpt(prompt, 5, 40)}”` : photo ? ` of ${photo}` : '';
  const name = nameOf(entry);
  return `${name ? `${name}, ` : ''}${entry.model} task${subject} from ${when}`;
}

/** The model's own name (decision 0085), or null when it has none. */
export function nameOf(entry: { name?: string | null | undefined }): string | null {
  return entry.name?.trim() || null;
}

/**
 * What a model is called (the one rule, `modelTitle` of src/contract, which the server's share
 * pages use too): its own name, else its prompt (quoted), else its photo's name. The SPA's lines
 * say the model beside it themselves, so no "made with …" here.
 */
export function titleOf(
  entry: Pick<LibraryEntry, 'prompt' | 'images'> & { name?: LibraryEntry['name'] },
): string {
  return modelTitle({ name: entry.name, prompt: entry.prompt, images: entry.images });
}

/**
 * What a model was made from, said beside its name: its title without the name ("“a red vase”",
 * "chair.png + 1 more", "A 3D model from 3 photos").
 */
export function madeFromOf(entry: Pick<LibraryEntry, 'prompt' | 'images'>): string {
  return modelTitle({ prompt: entry.prompt, images: entry.images });
}

/** The file name of an entry's first photo ("chair.png", "chair.png + 3 views"), if it has one. */
function photoNameOf(entry: { images?: LibraryEntry['images'] }): string | null {
  const images = entry.images ?? [];
  const name = images.find((i) => i.name)?.name;
  if (!name) return null;
  return images.length > 1 ? `${name} + ${images.length - 1} more` : name;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const numberFormat = new Intl.NumberFormat();

/** "5 Jan 2025, 14:02" (in the user's locale) of epoch milliseconds. */
export function formatDateTime(ms: number): string {
  return Number.isFinite(ms) ? dateTimeFormat.format(new Date(ms)) : '—';
}

/** "5 Jan 2025" (in the user's locale) of epoch milliseconds. */
export function formatDate(ms: number): string {
  return Number.isFinite(ms) ? dateFormat.format(new Date(ms)) : '—';
}

/** "14:02" (in the user's locale) of epoch milliseconds. */
export function formatTime(ms: number): string {
  return Number.isFinite(ms) ? timeFormat.format(new Date(ms)) : '—';
}

/** A whole number in the user's locale ("1,000"). */
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

const usdFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** An amount in a vendor's own unit: "970 credits", "$9.80" (decision 0115: never converted). */
export function formatAmount(amount: number, unit: 'credits' | 'USD'): string {
  return unit === 'USD'
    ? usdFormat.format(amount)
    : `${numberFormat.format(amount)} ${amount === 1 ? 'credit' : 'credits'}`;
}

/**
 * What a task cost, in its provider's own unit, by {@link formatAmount} (the model picker's and
 * the balance chips' own): a vendor's task its `cost` ("30 credits", "$0.02"), the spec's its
 * `credits_consumed`; null when it is not known or nothing was charged.
 */
export function costLabelOf(
  entry: Pick<LibraryEntry, 'credits_consumed'> & { cost?: LibraryEntry['cost'] },
): string | null {
  if (entry.cost)
    return entry.cost.amount > 0 ? formatAmount(entry.cost.amount, entry.cost.unit) : null;
  const credits = entry.credits_consumed;
  return credits !== null && credits > 0 ? formatAmount(credits, 'credits') : null;
}

/**
 * What a failed task cost, in words: the spec's refund ("30 credits refunded — failed tasks cost
 * nothing."), or a provider's own charge as its answer stated it, in its unit: nothing, or what
 * it kept for the stages it finished (a Meshy text task whose refine failed keeps its preview's).
 */
export function failureChargeWords(
  entry: (Pick<LibraryEntry, 'model'> & { cost?: LibraryEntry['cost'] }) | undefined,
  specPrice: number | null,
): string {
  const provider = entry ? providerOfModel(entry.model) : 'spec';
  if (provider === 'spec' || !entry)
    return `${specPrice !== null ? `${specPrice} credits refunded` : 'The credits for this task were refunded'} — failed tasks cost nothing.`;
  const kept =
    entry.cost && entry.cost.amount > 0 ? costLabelOf({ ...entry, credits_consumed: null }) : null;
  return kept
    ? `${PROVIDER_LABELS[provider]} kept ${kept} for the stages this task finished.`
    : `${PROVIDER_LABELS[provider]} charged nothing for this failed task.`;
}

/** A length of time: "42 s", "10 min 30 s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * How long a finished task took, in seconds: from its `created` to its `completed_at` (both the
 * upstream's, unix seconds); null until it has ended, or when either is not known.
 */
export function secondsTaken(
  entry: Pick<LibraryEntry, 'created' | 'completed_at' | 'status'>,
): number | null {
  if (entry.status !== 'completed' || entry.completed_at == null) return null;
  const s = entry.completed_at - entry.created;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

/** Who made a model, and with which model: "Meshy · meshy/meshy-6", "Kiln API · beta". */
export function madeByWords(entry: Pick<LibraryEntry, 'model'>): string {
  return `${PROVIDER_LABELS[providerOfModel(entry.model)]} · ${entry.model}`;
}

/** One fact of where a model came from, as the viewer's facts list shows it. */
export interface OriginFact {
  id: string;
  term: string;
  value: string;
}

/**
 * Where a model came from, as facts beside what its file says (the viewer's facts, the compare
 * view): made by, time taken, price; each a dash when not known.
 */
export function originFacts(
  entry: Pick<
    LibraryEntry,
    'model' | 'created' | 'completed_at' | 'status' | 'credits_consumed'
  > & {
    cost?: LibraryEntry['cost'];
  },
): OriginFact[] {
  const seconds = secondsTaken(entry);
  return [
    { id: 'made-by', term: 'Made by', value: madeByWords(entry) },
    {
      id: 'time-taken',
      term: 'Time taken',
      value: seconds === null ? '—' : formatDuration(seconds),
    },
    { id: 'price', term: 'Price', value: costLabelOf(entry) ?? '—' },
  ];
}

/** The `datetime` attribute of a <time>. */
export function isoDateTime(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}

/** Which of Kiln's stores an archive waits on, in words (decision 0095). */
const OUTAGE_WORDS: Record<ArchiveOutage, string> = {
  file_store: 'Kiln’s file store cannot be reached',
  database: 'Kiln’s database cannot be reached',
};

/**
 * When Kiln tries again, in words: "at 3:42 PM", or "in a moment" once that time has come (the
 * next sweep takes it).
 */
function tryAgain(nextMs: number | null, formatWhen: (ms: number) => string, now: number) {
  if (nextMs === null) return 'It tries again by itself.';
  return nextMs <= now
    ? 'It tries again by itself in a moment.'
    : `It tries again by itself at ${formatWhen(nextMs)}.`;
}

/**
 * What the gallery, the result and the viewer say about Kiln's own copy of a completed model
 * when it is not there: waiting on Kiln's own store (which one, and that Kiln tries again by
 * itself, and when: no failure of the model), being retried (and when), or given up (the
 * provider's link still works until it expires). Null when all is well or there is nothing to
 * keep yet.
 */
export function archiveNote(
  entry: Pick<LibraryEntry, 'status' | 'archive'>,
  formatWhen: (ms: number) => string = formatTime,
  now: number = Date.now(),
): string | null {
  const archive = entry.archive;
  if (entry.status !== 'completed' || !archive) return null;
  if (archive.outage && (archive.state === 'pending' || archive.state === 'retrying'))
    return `${OUTAGE_WORDS[archive.outage]}, so Kiln has not kept its copy of this model yet. ${tryAgain(archive.next_attempt_ms, formatWhen, now)}`;
  if (archive.state === 'retrying')
    return archive.next_attempt_ms === null
      ? 'Kiln could not keep a copy of this model yet; it will try again.'
      : `Kiln could not keep a copy of this model yet; it tries again at ${formatWhen(archive.next_attempt_ms)}.`;
  if (archive.state === 'failed')
    return `Kiln could not keep a copy of this model after ${archive.attempts} tries${archive.error ? ` (${archive.error})` : ''}. Download it soon: the provider's link expires.`;
  return null;
}

/**
 * What a list of finished models (the viewer's picker) says of those missing from it because
 * their copy waits on Kiln's own store: how many, which store, that Kiln tries again by itself
 * and when (the soonest). Null when none waits so.
 */
export function outageListNote(
  entries: readonly Pick<LibraryEntry, 'status' | 'archived' | 'archive'>[],
  formatWhen: (ms: number) => string = formatTime,
  now: number = Date.now(),
): string | null {
  const waiting = entries.filter(
    (e) =>
      e.status === 'completed' &&
      !e.archived &&
      e.archive?.outage &&
      (e.archive.state === 'pending' || e.archive.state === 'retrying'),
  );
  const first = waiting[0]?.archive;
  if (!first?.outage) return null;
  const times = waiting.flatMap((e) =>
    e.archive?.next_attempt_ms ? [e.archive.next_attempt_ms] : [],
  );
  const next = times.length > 0 ? Math.min(...times) : null;
  const one = waiting.length === 1;
  return `${one ? '1 finished model is' : `${waiting.length} finished models are`} not here yet: ${OUTAGE_WORDS[first.outage]}, so Kiln has not kept ${one ? 'its copy' : 'their copies'}. ${tryAgain(next, formatWhen, now)} ${one ? 'It appears' : 'They appear'} here once kept.`;
}

/**
 * How an entry reads in the picker: model, what it was made from (the prompt, or the photo's
 * own name), and when, to the minute: "beta · chair.png · 24 Nov 2026, 15:32". Entries of one
 * day no longer read alike. A named model says its name first, what it was made from beside it:
 * "beta · Blue teapot (chair.png) · 24 Nov 2026, 15:32".
 */
export function describeEntry(entry: LibraryEntry): string {
  const name = nameOf(entry);
  const title = name ? `${titleOf(entry)} (${madeFromOf(entry)})` : titleOf(entry);
  return `${entry.model} · ${title} · ${formatDateTime(entry.created * 1000)}`;
}

const timeWithSeconds = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/**
 * {@link describeEntry} for a list, every label different: entries that read alike (the same
 * model and input, made within one minute) get the time to the second, and, still alike, a
 * number in the list's order: "… 15:32 (15:32:07)", "… 15:32 (15:32:07, 2)".
 */
export function describeEntries(entries: readonly LibraryEntry[]): string[] {
  const labels = entries.map(describeEntry);
  const count = (list: string[]) => {
    const n = new Map<string, number>();
    for (const l of list) n.set(l, (n.get(l) ?? 0) + 1);
    return n;
  };
  const alike = count(labels);
  const withSeconds = labels.map((label, i) =>
    alike.get(label)! > 1
      ? `${label} (${timeWithSeconds.format(new Date(entries[i]!.created * 1000))})`
      : label,
  );
  const still = count(withSeconds);
  const seen = new Map<string, number>();
  return withSeconds.map((label) => {
    if (still.get(label)! === 1) return label;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return n === 1 ? label : `${label.slice(0, -1)}, ${n})`;
  });
}

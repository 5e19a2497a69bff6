// Library entries, tasks and collections as the tools answer them: what an assistant needs to
// say and to call the next tool, every address absolute (the client's `url`), and nothing that
// carries a key (signed addresses sign a path and a time, never a key).
import type { KilnApi } from '../client/kiln/index.ts';
import {
  modelTitle,
  shownStage,
  type Collection,
  type LibraryEntry,
  type Task,
} from '../contract/index.ts';
import { providerOfModel } from '../contract/provider-ids.ts';

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
const isoSeconds = (s: number | null | undefined) => (s == null ? null : iso(s * 1000));

/** What an entry was made from: one photo, 2–4 views, or a prompt. */
function kindOf(entry: Pick<LibraryEntry, 'prompt' | 'images'>): string {
  if (entry.prompt !== null && entry.images.length === 0) return 'prompt';
  return entry.images.length > 1 ? 'views' : 'photo';
}

/** A model of the library in a few lines: search results, and the head of every answer. */
export function modelSummary(api: KilnApi, entry: LibraryEntry) {
  return {
    id: entry.id,
    name: entry.name ?? null,
    title: modelTitle(entry),
    model: entry.model,
    provider: providerOfModel(entry.model),
    kind: kindOf(entry),
    status: entry.status,
    progress: entry.progress,
    created: isoSeconds(entry.created),
    favourite: entry.favourite ?? false,
    hidden: entry.hidden ?? false,
    collections: entry.collections ?? [],
    shared_url: entry.share?.url ?? null,
    download_url: entry.model_url ? api.url(entry.model_url) : null,
    picture_url: entry.thumbnail_url ? api.url(entry.thumbnail_url) : null,
    resource: `kiln://models/${encodeURIComponent(entry.id)}`,
  };
}

/** One model in full: its inputs, what it cost, its copy in Kiln, its error. */
export function modelDetail(api: KilnApi, entry: LibraryEntry) {
  return {
    ...modelSummary(api, entry),
    prompt: entry.prompt,
    photos: entry.images.map((i) => i.name ?? null),
    completed: isoSeconds(entry.completed_at),
    credits_consumed: entry.credits_consumed,
    credits_remaining: entry.credits_remaining,
    cost: entry.cost ?? null,
    archived: entry.archived,
    archive: entry.archive?.state ?? (entry.archived ? 'archived' : 'none'),
    shared_since: iso(entry.share?.created_ms),
    error: entry.error ? { code: entry.error.code ?? null, message: entry.error.message } : null,
  };
}

/** A task as the upstream tells it now (its result's address left out: the library's is Kiln's). */
export function taskSummary(task: Task) {
  const progress = task.progress ?? (task.status === 'completed' ? 100 : 0);
  return {
    task_id: task.id,
    status: task.status,
    progress,
    stage: shownStage(task.progress_stage, progress, false).label,
    created: isoSeconds(task.created),
    completed: isoSeconds(task.completed_at),
    credits_consumed: task.usage?.credits_consumed ?? null,
    credits_remaining: task.usage?.credits_remaining ?? null,
    error: task.error ? { code: task.error.code ?? null, message: task.error.message } : null,
  };
}

export function collectionSummary(api: KilnApi, collection: Collection) {
  return {
    id: collection.id,
    name: collection.name,
    count: collection.count,
    created: iso(collection.created_ms),
    updated: iso(collection.updated_ms),
    shared_url: collection.share?.url ?? null,
    cover_url: collection.cover_url ? api.url(collection.cover_url) : null,
    resource: `kiln://collections/${encodeURIComponent(collection.id)}`,
  };
}

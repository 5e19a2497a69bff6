// A library entry as the server answers one (a finished beta task of 24 Nov 2026, 15:32 UTC),
// for tests of what the SPA makes of entries; `over` changes any field.
import type { LibraryEntry } from '../contract/index.ts';

export function libraryEntry(over: Partial<LibraryEntry> = {}): LibraryEntry {
  return {
    id: 'task_abc',
    model: 'beta',
    mode: 'async',
    status: 'completed',
    progress: 100,
    progress_stage: null,
    images: [],
    prompt: null,
    created: Date.UTC(2026, 10, 24, 15, 32) / 1000,
    completed_at: null,
    updated_ms: 0,
    credits_consumed: 15,
    credits_remaining: 985,
    error: null,
    model_url: null,
    archived: true,
    ...over,
  };
}

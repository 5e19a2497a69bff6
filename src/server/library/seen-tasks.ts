// What this process last recorded of each task, per owner: the one cache that lets a poll which
// says nothing new cost no parsing (the proxy) and no database work (the library service).
//
// Safe across replicas: the upstream only moves a task forward, so a state seen here is never
// newer than what the database holds once written. Only what was recorded is remembered: a
// write that failed leaves nothing here, so the next poll writes it again (decision 0075).

/** What recording a task's state led to. */
export interface RecordedState {
  /** The state as the library writes it (`owner` and the update, as text). */
  signature: string;
  /** The archived GLB's sha, when the write found one. */
  sha: string | undefined;
  /** Whether any library row knows the task (a task made elsewhere has none). */
  inLibrary: boolean;
}

/** How many tasks are remembered; past it, the one used longest ago goes. */
const SEEN_MAX = 10_000;

export function createSeenTasks(max = SEEN_MAX) {
  const seen = new Map<string, { state?: RecordedState; body?: string }>();
  const keyOf = (owner: string, taskId: string) => `${owner}\n${taskId}`;
  const put = (key: string, value: { state?: RecordedState; body?: string }) => {
    seen.delete(key);
    seen.set(key, value);
    if (seen.size > max) seen.delete(seen.keys().next().value as string);
  };

  return {
    /**
     * True when `body` is, byte for byte, the upstream's answer about this task that was last
     * recorded in full: nothing new, not even worth parsing.
     */
    sameBody(owner: string, taskId: string, body: string): boolean {
      return seen.get(keyOf(owner, taskId))?.body === body;
    },

    /** What was recorded when the task was last in state `signature`, if it still is. */
    sameState(owner: string, taskId: string, signature: string): RecordedState | undefined {
      const state = seen.get(keyOf(owner, taskId))?.state;
      return state?.signature === signature ? state : undefined;
    },

    /** A state written: remembered, and any answer remembered for an older state forgotten. */
    rememberState(owner: string, taskId: string, state: RecordedState): void {
      put(keyOf(owner, taskId), { state });
    },

    /** The upstream's answer (its text) whose state has just been recorded. */
    rememberBody(owner: string, taskId: string, body: string): void {
      const key = keyOf(owner, taskId);
      const state = seen.get(key)?.state;
      put(key, state ? { state, body } : { body });
    },

    /** How many tasks are remembered. */
    get size(): number {
      return seen.size;
    },
  };
}

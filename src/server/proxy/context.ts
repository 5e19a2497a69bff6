// What the proxy's route handlers share: their dependencies, their time limits, and the one way a
// task response is read, recorded and passed on (observe.ts).
import type { LibraryService } from '../library/service.ts';
import type { OwnerOf } from '../owner-id.ts';
import type { Storage } from '../storage/database.ts';
import type { ProxyTarget } from './forward.ts';
import type { KeyChecker } from './key-check.ts';
import type { Observe } from './observe.ts';
import type { ProviderTaskDeps } from '../providers/tasks.ts';

export interface ProxyRouteDeps {
  upstream: ProxyTarget;
  /** Told what the upstream said of a key on a create (decision 0092). */
  keys?: Pick<KeyChecker, 'learn'>;
  library: LibraryService;
  storage: Pick<Storage, 'idempotency' | 'counters' | 'holder' | 'intents'>;
  ownerOf: OwnerOf;
  now: () => number;
  log: (message: string) => void;
  /** Creates per minute per key; 0 = no limit. */
  createsPerMinute: number;
  /** Largest create body (data: URIs make them big). */
  maxCreateBytes?: number;
  /** Upstream time limits: how long a sync create waits for its task, and one upstream call. */
  timeouts?: { syncMs: number; defaultMs: number };
  /** The vendors' adapters behind `provider/model` creates and `provider_ref` tasks (issue 34). */
  providers?: ProviderTaskDeps;
  /** Fires when this replica shuts down: sync creates answer the pending shape at once. */
  shutdown?: AbortSignal;
}

export interface ProxyContext {
  deps: ProxyRouteDeps;
  /** How long a sync create waits for its task. */
  syncMs: number;
  /** How long one upstream call may take. */
  defaultMs: number;
  observe: Observe;
}

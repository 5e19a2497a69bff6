/**
 * The provider seam (issue 34): what every adapter under `src/providers/<name>/` offers Kiln, in
 * Kiln's own words. An adapter speaks its vendor's HTTP API (zod at the boundary) and answers in
 * these shapes; the server turns them into the spec's task shape for the library and the studio.
 * Keys travel per call and are never kept by an adapter.
 */

/** The providers Kiln knows. `spec` is the spec's upstream (UPSTREAM_URL or the built-in mock). */
type ProviderName = 'spec' | 'meshy' | 'tripo' | 'fal';

/** What a model takes: one image, 2–4 views of one object, or a prompt. */
export type ProviderInputKind = 'image' | 'multiview' | 'text';

/** The unit a provider prices and counts a balance in. */
type PriceUnit = 'credits' | 'USD';

/** A named side of one object, as Kiln's multi-view form names them. */
export type ViewSide = 'front' | 'back' | 'left' | 'right';

/** One model a provider offers, as Kiln lists it (`id` is the vendor's own, without the prefix). */
export interface ProviderModel {
  /** The vendor's model id (Kiln shows `provider/id`). */
  id: string;
  /** A person's name for it ("Meshy 6", "Hunyuan3D v2"). */
  label: string;
  inputs: readonly ProviderInputKind[];
  /** The price of one task per input kind, in `unit`, as the vendor documents it. */
  price: Partial<Record<ProviderInputKind, number>>;
  unit: PriceUnit;
  /** One line: what the model is and anything that does not map (stages charged, views taken). */
  description: string;
}

/** What to make: exactly one input kind. Image addresses are http(s) or data: URIs. */
export type ProviderInput =
  | { kind: 'image'; imageUrl: string }
  | { kind: 'multiview'; views: readonly { side: ViewSide | null; url: string }[] }
  | { kind: 'text'; prompt: string };

export interface CreateOptions {
  /** Kiln's intent id for this create: sent as the vendor's idempotency key where it has one. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** A vendor task as Kiln understands it. */
export interface ProviderTask {
  /**
   * The adapter's reference to the task: everything `get` needs to find it again (for fal the
   * model endpoint and the request id). Opaque to the rest of Kiln; URL-safe, no `/`.
   */
  ref: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** 0–100 where the vendor says it; null where it does not (fal): never invented. */
  progress: number | null;
  /** Where the vendor says it: the place in its queue (0 = next). */
  queuePosition?: number | null;
  /** A short name for what it is doing now, in words a person reads ("Refining texture"). */
  stage?: string | null;
  /** The vendor's log lines, newest last (fal), when it gives them. */
  logs?: readonly string[];
  /** When the vendor created it, ms since epoch. */
  createdMs?: number | null;
  /** Set once succeeded. */
  result?: {
    glbUrl: string;
    thumbnailUrl?: string | null;
    /** When the vendor's result address stops working (ms since epoch), where known. */
    expiresMs?: number | null;
  };
  /** Set once failed: a code Kiln shows and a sentence a person understands. */
  error?: { code: string; message: string };
  /** What this task costs in the vendor's unit, where the vendor says or documents it. */
  cost?: { amount: number; unit: PriceUnit } | null;
  /** True when the vendor refunds a failed task (its docs say so). */
  refunded?: boolean;
  /**
   * A task of two charged stages (Meshy's text-to-3d: preview, then refine) whose first stage
   * succeeded: Kiln calls `continue` once, under its own intent record, and keeps the new `ref`.
   */
  awaitingContinue?: boolean;
  /** Which stage of a multi-stage task this is (1-based) and how many there are. */
  step?: { index: number; of: number; name: string };
}

/** A balance as the vendor reports it; null from `balance` when the vendor has no balance call. */
export interface ProviderBalance {
  amount: number;
  unit: PriceUnit;
  /** Held for running tasks where the vendor reports it (Tripo's `frozen`). */
  frozen?: number;
  asOfMs: number;
}

/** Why a call failed, in Kiln's terms; the adapter maps the vendor's statuses and codes here. */
export type ProviderErrorKind =
  | 'invalid_key'
  | 'insufficient_credits'
  | 'rate_limited'
  | 'too_many_tasks'
  | 'invalid_input'
  | 'not_found'
  | 'upstream_error'
  | 'unreachable';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly details: {
      status?: number;
      /** The vendor's own code, for logs and support. */
      vendorCode?: string | number;
      /** Seconds, from Retry-After where the vendor sends it. */
      retryAfterS?: number;
      /** The request field at fault, for invalid_input. */
      param?: string;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** One provider's adapter. Every call takes the artist's key for that provider. */
export interface ProviderAdapter {
  readonly name: ProviderName;
  /** A person's name ("Meshy"). */
  readonly label: string;
  /** Whether a string looks like this vendor's key (its documented prefix), for recognising a pasted key. */
  recognisesKey(key: string): boolean;
  models(key: string): Promise<readonly ProviderModel[]>;
  create(
    key: string,
    model: string,
    input: ProviderInput,
    options?: CreateOptions,
  ): Promise<ProviderTask>;
  get(key: string, ref: string, signal?: AbortSignal): Promise<ProviderTask>;
  /** Starts the next charged stage of a task that is `awaitingContinue`; returns its task. */
  continue?(key: string, ref: string, options?: CreateOptions): Promise<ProviderTask>;
  /**
   * The next stage a `continue` of `ref` already started, if the vendor has one (asked before a
   * continue whose process died is taken over, so the stage is not started, and charged, twice).
   */
  findContinued?(key: string, ref: string): Promise<ProviderTask | undefined>;
  /** null when the vendor offers no balance call. */
  balance(key: string, signal?: AbortSignal): Promise<ProviderBalance | null>;
}

/** What an adapter is made with: where the vendor is, and how to reach it. */
export interface AdapterDeps {
  /** The vendor's base URL (MESHY_API_URL, TRIPO_API_URL, FAL_API_URL); the vendor's public API by default. */
  baseUrl: string;
  /** The fetch to use: Kiln passes one that reaches only configured provider hosts. */
  fetch?: typeof fetch;
  now?: () => number;
}

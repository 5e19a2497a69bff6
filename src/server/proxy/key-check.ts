import { forwardRaw, type ProxyTarget } from './forward.ts';

/** What the upstream says of a key: it took it, it refused it, or it could not be asked. */
type KeyVerdict = 'accepted' | 'refused' | 'unknown';

/** How long a verdict is believed: a key once accepted for a while, a refusal briefly. */
const ACCEPTED_FOR_MS = 10 * 60_000;
const REFUSED_FOR_MS = 30_000;
const ASK_TIMEOUT_MS = 5_000;
/** Verdicts kept at most (the oldest go first): a flood of made-up keys costs bounded memory. */
const MAX_VERDICTS = 10_000;

export interface KeyChecker {
  /** The upstream's verdict on the key filed as `owner`, asked with the cheapest call (/models). */
  verdict(owner: string, authorization: string, incoming: Request): Promise<KeyVerdict>;
  /** The upstream answered a call with this key: accepted (2xx) or refused (401/403). */
  learn(owner: string, verdict: 'accepted' | 'refused'): void;
}

/**
 * Whether the upstream accepts a key (decision 0092), asked once and then believed for a short
 * while, per owner hash (the key itself is never kept). Calls for one key at once share one ask.
 */
export function keyChecker(deps: { upstream: ProxyTarget; now: () => number }): KeyChecker {
  const verdicts = new Map<string, { verdict: 'accepted' | 'refused'; untilMs: number }>();
  const asking = new Map<string, Promise<KeyVerdict>>();

  function learn(owner: string, verdict: 'accepted' | 'refused') {
    verdicts.delete(owner);
    verdicts.set(owner, {
      verdict,
      untilMs: deps.now() + (verdict === 'accepted' ? ACCEPTED_FOR_MS : REFUSED_FOR_MS),
    });
    if (verdicts.size > MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value as string);
  }

  async function ask(owner: string, authorization: string, incoming: Request) {
    try {
      const res = await forwardRaw(deps.upstream, {
        incoming: new Request(new URL(incoming.url).origin, { headers: { authorization } }),
        path: '/models',
        timeoutMs: ASK_TIMEOUT_MS,
      });
      await res.body?.cancel();
      if (res.ok) learn(owner, 'accepted');
      else if (res.status === 401 || res.status === 403) learn(owner, 'refused');
      else return 'unknown';
      return verdicts.get(owner)!.verdict;
    } catch {
      return 'unknown';
    }
  }

  return {
    learn,
    async verdict(owner, authorization, incoming) {
      const known = verdicts.get(owner);
      if (known && known.untilMs > deps.now()) return known.verdict;
      let pending = asking.get(owner);
      if (!pending) {
        pending = ask(owner, authorization, incoming).finally(() => asking.delete(owner));
        asking.set(owner, pending);
      }
      return pending;
    },
  };
}

// What every tool and resource of Kiln's MCP server is given: the one client for Kiln's `/api`
// (src/client/kiln), the facts reader, and what this transport allows.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { KilnApi } from '../client/kiln/index.ts';
import type { VendorProvider } from '../contract/provider-ids.ts';
import type { FactsReader } from './facts.ts';

export interface McpContext {
  api: KilnApi;
  facts: FactsReader;
  /** Local files may be read (`image_path`, `image_paths`): stdio only, never over HTTP. */
  localFiles: boolean;
  /** The vendors whose keys the caller gave (their models need them). */
  vendors: readonly VendorProvider[];
  /** Milliseconds between polls of a task or an export (default: the client's own pace). */
  pollMs?: number | undefined;
}

/** What the SDK hands a tool besides its arguments: the signal, `_meta`, notifications. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Reports a step of a long call as MCP progress (0–100), when the caller asked for it. */
export type Report = (progress: number, message: string) => void;

/**
 * The reporter of one call: a `notifications/progress` for each step, only when the request's
 * `_meta` carries a `progressToken`, and only when the figure grew (the protocol wants it to).
 */
export function progressFor(extra: Extra): Report {
  const token = extra._meta?.progressToken;
  let last = -1;
  return (progress, message) => {
    const value = Math.min(100, Math.round(progress));
    if (token === undefined || value <= last) return;
    last = value;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: value, total: 100, message },
      })
      .catch(() => {}); // the caller went away: the call ends on its own signal
  };
}

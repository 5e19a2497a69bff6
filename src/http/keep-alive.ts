// How long Kiln's HTTP servers keep an idle connection open. Node's default (5 s) is shorter than
// what clients and proxies keep theirs: nginx's upstream keepalive, a browser, Playwright's
// request context. A client that sends on a connection the server is closing at that moment
// gets a reset (ECONNRESET; a 502 through nginx) for a request that did nothing wrong. The
// server's idle timeout must outlast the client's, so it is the longer one here.

/** Idle keep-alive connections stay open this long (longer than nginx's and browsers' 60 s). */
export const KEEP_ALIVE_MS = 65_000;

/**
 * Applies Kiln's keep-alive to a Node HTTP(S) server (an HTTP/2 server has no such timeouts and
 * is left as it is); headers must be allowed a little longer than an idle connection.
 */
export function keepConnectionsOpen(server: object): void {
  if (!('keepAliveTimeout' in server) || !('headersTimeout' in server)) return;
  Object.assign(server, { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1_000 });
}

import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The Content-Security-Policy under which the SPA works fully: no inline script,
 * nothing from another origin. `wasm-unsafe-eval` lets the viewer's Draco/Basis
 * decoders (served from this origin) compile; `blob:` and `data:` cover the
 * textures and workers three.js makes from bytes it already has.
 */
const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'", 'data:', 'blob:'],
  workerSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  mediaSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  manifestSrc: ["'self'"],
};

/** A policy object as the header says it (`default-src 'self'; …`). */
function cspHeader(policy: Record<string, readonly string[]>): string {
  return Object.entries(policy)
    .map(
      ([name, values]) =>
        `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`,
    )
    .join('; ');
}

/**
 * The policy of the one kind of page other sites may frame: a shared model's embed
 * (`/s/{token}/embed`, share/). The SPA's own, with `frame-ancestors *`; every other response
 * keeps `frame-ancestors 'none'` and `X-Frame-Options: DENY`.
 */
export const FRAMEABLE_CSP = cspHeader({ ...CSP, frameAncestors: ['*'] });

export function securityHeaders() {
  const headers = secureHeaders({
    contentSecurityPolicy: CSP,
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'no-referrer',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    strictTransportSecurity: false, // Kiln is often served over plain http on localhost
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
    // A route that sets its own header keeps it (the KTX2 worker's CSP, see app.ts).
    overwrite: false,
  });
  return createMiddleware(async (c, next) => {
    await headers(c, next);
    // X-Frame-Options cannot say "any site": a page that may be framed goes without it (its CSP's
    // frame-ancestors says who may frame it).
    if (c.res.headers.get('Content-Security-Policy') === FRAMEABLE_CSP)
      c.res.headers.delete('X-Frame-Options');
  });
}

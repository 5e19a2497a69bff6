import { secureHeaders } from 'hono/secure-headers';

/**
 * The Content-Security-Policy under which the SPA works fully: no inline script,
 * nothing from another origin. `wasm-unsafe-eval` lets the viewer's Draco/Basis
 * decoders (served from this origin) compile; `blob:` and `data:` cover the
 * textures and workers three.js makes from bytes it already has.
 */
export const CSP = {
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

export function securityHeaders() {
  return secureHeaders({
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
}

// "View in AR" on a shared model's page (decision 0090): which AR viewer this device has, and
// the address that opens the model in it. Plain TypeScript: no React, no three.js.

/** The AR viewer a device opens from a link, if any. */
export type ArViewer = 'quick-look' | 'scene-viewer' | null;

/**
 * iOS and iPadOS open `<a rel="ar">` links in AR Quick Look (Safari says so through
 * `relList.supports('ar')`; every browser there is WebKit, so an iPhone or iPad user agent
 * counts too); Android opens Scene Viewer through an `intent://` link (the Google app handles
 * it; without it the fallback page opens). Anything else: none.
 */
export function arViewerOf(
  env: { userAgent: string; supportsRelAr: boolean } = {
    userAgent: navigator.userAgent,
    supportsRelAr: supportsRelAr(),
  },
): ArViewer {
  if (env.supportsRelAr || /\b(iPhone|iPad|iPod)\b/.test(env.userAgent)) return 'quick-look';
  if (/\bAndroid\b/i.test(env.userAgent)) return 'scene-viewer';
  return null;
}

function supportsRelAr(): boolean {
  try {
    return document.createElement('a').relList.supports('ar');
  } catch {
    return false;
  }
}

/**
 * The `intent://` address that opens a GLB in Scene Viewer (Google's documented form: the
 * Google app's package, AR first with a fallback to its 3D view, and `browser_fallback_url`
 * for a phone without the app). `file` and `fallback` must be absolute: Scene Viewer fetches
 * the file itself. Every value is encoded, so no part of a title can end the intent early.
 */
export function sceneViewerIntent(options: {
  file: string;
  title: string;
  fallback: string;
}): string {
  const params = new URLSearchParams({
    file: new URL(options.file).href,
    mode: 'ar_preferred',
    title: options.title.slice(0, 60),
  });
  return (
    `intent://arvr.google.com/scene-viewer/1.2?${params.toString()}` +
    '#Intent;scheme=https;package=com.google.android.googlequicksearchbox;' +
    'action=android.intent.action.VIEW;' +
    `S.browser_fallback_url=${encodeURIComponent(new URL(options.fallback).href)};end;`
  );
}

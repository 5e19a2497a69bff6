import { describe, expect, it } from 'vitest';
import { arViewerOf, sceneViewerIntent } from './ar-links.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const PIXEL =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('which AR viewer a device has', () => {
  it('is Quick Look where <a rel="ar"> is supported, Scene Viewer on Android, else none', () => {
    expect(arViewerOf({ userAgent: IPHONE, supportsRelAr: true })).toBe('quick-look');
    expect(arViewerOf({ userAgent: PIXEL, supportsRelAr: false })).toBe('scene-viewer');
    expect(arViewerOf({ userAgent: DESKTOP, supportsRelAr: false })).toBeNull();
    // Every iOS browser is WebKit, which opens Quick Look links, whether it says so or not.
    expect(arViewerOf({ userAgent: IPHONE, supportsRelAr: false })).toBe('quick-look');
  });
});

describe('the Scene Viewer intent', () => {
  it('is the documented form with the GLB, the title and the fallback page encoded', () => {
    const intent = sceneViewerIntent({
      file: 'https://kiln.example/api/shares/AAAAAAAAAAAAAAAAAAAAAAAA/model.glb',
      title: 'A vase & a jug; #1',
      fallback: 'https://kiln.example/s/AAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(intent).toBe(
      'intent://arvr.google.com/scene-viewer/1.2?' +
        'file=https%3A%2F%2Fkiln.example%2Fapi%2Fshares%2FAAAAAAAAAAAAAAAAAAAAAAAA%2Fmodel.glb' +
        '&mode=ar_preferred&title=A+vase+%26+a+jug%3B+%231' +
        '#Intent;scheme=https;package=com.google.android.googlequicksearchbox;' +
        'action=android.intent.action.VIEW;' +
        'S.browser_fallback_url=https%3A%2F%2Fkiln.example%2Fs%2FAAAAAAAAAAAAAAAAAAAAAAAA;end;',
    );
    // The query reads back to what was given.
    const query = new URLSearchParams(intent.slice(intent.indexOf('?') + 1, intent.indexOf('#')));
    expect(query.get('file')).toBe(
      'https://kiln.example/api/shares/AAAAAAAAAAAAAAAAAAAAAAAA/model.glb',
    );
    expect(query.get('title')).toBe('A vase & a jug; #1');
  });

  it('keeps a title from ending the intent, and shortens a long one', () => {
    const intent = sceneViewerIntent({
      file: 'https://kiln.example/m.glb',
      title: `x;end;#Intent;S.evil=1 ${'y'.repeat(200)}`,
      fallback: 'https://kiln.example/s/t',
    });
    expect(intent.match(/;end;/g)).toHaveLength(1);
    expect(intent.match(/#/g)).toHaveLength(1);
    const title = new URLSearchParams(intent.slice(intent.indexOf('?') + 1, intent.indexOf('#')));
    expect(title.get('title')).toHaveLength(60);
  });

  it('refuses a relative file or fallback (Scene Viewer fetches the file itself)', () => {
    expect(() =>
      sceneViewerIntent({ file: '/m.glb', title: 't', fallback: 'https://kiln.example/' }),
    ).toThrow();
  });
});

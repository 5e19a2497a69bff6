// "View in AR" on a shared model's page (decision 0090): on iPhone and iPad a Quick Look link to
// the link's USDZ, on Android a Scene Viewer link to its GLB, elsewhere a QR code of the page to
// open it on a phone. Both files are the link's own, so they stop working when it is revoked.
import { useId, useState } from 'react';
import type { PublicShare } from '../../../contract/index.ts';
import { arViewerOf, sceneViewerIntent, type ArViewer } from './ar-links.ts';
import { QrCode } from './qr-code.tsx';
import { onlyOnThisComputer } from './reach.ts';
import { ThisComputerOnly } from './this-computer-only.tsx';

/** A cube in a corner frame, the usual sign for AR (drawn here, in currentColor). */
function ArIcon() {
  return (
    <svg
      className="share-ar__icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
    >
      <path d="M3 8V4h4M17 4h4v4M21 16v4h-4M7 20H3v-4" />
      <path d="M12 6.5l5 2.75v5.5L12 17.5l-5-2.75v-5.5zM12 12l5-2.75M12 12L7 9.25M12 12v5.5" />
    </svg>
  );
}

/**
 * Quick Look opens a `rel="ar"` link only when its one child is an image: the button's face is
 * that image (an SVG with the words on it), and its alternative text names the link.
 */
const QUICK_LOOK_FACE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40" viewBox="0 0 150 40">' +
    '<rect width="150" height="40" rx="8" fill="#c2410c"/>' +
    '<g fill="none" stroke="#fff" stroke-width="1.8" stroke-linejoin="round" transform="translate(14 8)">' +
    '<path d="M3 8V4h4M17 4h4v4M21 16v4h-4M7 20H3v-4"/>' +
    '<path d="M12 6.5l5 2.75v5.5L12 17.5l-5-2.75v-5.5zM12 12l5-2.75M12 12L7 9.25M12 12v5.5"/></g>' +
    '<text x="46" y="25.5" fill="#fff" font-family="-apple-system, system-ui, sans-serif" ' +
    'font-size="15" font-weight="600">View in AR</text></svg>',
)}`;

export function ViewInAr({
  model,
  viewer = arViewerOf(),
}: {
  model: PublicShare;
  /** Which AR viewer this device has (tests may say). */
  viewer?: ArViewer;
}) {
  const [phone, setPhone] = useState(false);
  const panelId = useId();

  if (viewer === 'quick-look') {
    // Quick Look needs the USDZ the owner's browser made; until then, nothing to offer.
    if (!model.usdz_url) return null;
    return (
      <p className="share-ar">
        <a rel="ar" href={model.usdz_url} className="share-ar__quick-look">
          <img src={QUICK_LOOK_FACE} alt="View in AR" width="150" height="40" />
        </a>
      </p>
    );
  }

  if (viewer === 'scene-viewer') {
    const intent = sceneViewerIntent({
      file: new URL(model.model_url, window.location.href).href,
      title: model.title,
      fallback: model.url,
    });
    return (
      <p className="share-ar">
        <a href={intent} className="button primary share-ar__link">
          <ArIcon /> View in AR
        </a>
      </p>
    );
  }

  // A computer: the page's QR code, for a phone that can show the model in the room.
  return (
    <div className="share-ar">
      <button
        type="button"
        className="small share-ar__phone"
        aria-expanded={phone}
        aria-controls={panelId}
        onClick={() => setPhone((open) => !open)}
      >
        <ArIcon /> View on a phone
      </button>
      <div id={panelId} className="share-ar__panel" hidden={!phone}>
        {phone && (
          <>
            {onlyOnThisComputer(model.url) ? (
              <ThisComputerOnly />
            ) : (
              <>
                <QrCode
                  text={model.url}
                  label={`QR code of the link to ${model.title}`}
                  size={144}
                />
                <p className="small muted">
                  Point a phone’s camera at the code to open this page there: on an iPhone, iPad or
                  Android phone, “View in AR” puts the model in the room.
                </p>
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}

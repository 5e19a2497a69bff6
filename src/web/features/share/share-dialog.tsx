import { useEffect, useRef } from 'react';
import type { Share } from '../../../contract/index.ts';
import {
  useCreateShare,
  useRevokeShare,
  useShareLink,
  useUploadShareUsdz,
} from '../../api/share.ts';
import { describeError } from '../../lib/describe-error.ts';
import { Modal } from '../../ui/modal.tsx';
import { loadUsdzMaker } from '../viewer/index.ts';
import { EmbedCode } from './embed-code.tsx';
import { PublicLinkPanel } from './public-link-panel.tsx';
import { QrCode } from './qr-code.tsx';
import { onlyOnThisComputer } from './reach.ts';
import './share.css';

/** What the share dialog needs to know of a model: which task, and what to call it. */
export interface ShareTarget {
  id: string;
  /** "“a small red vase”", "chair.png", "3 photos". */
  title: string;
}

const COPY_FAILED = 'Could not copy: the text is selected, press Ctrl+C (⌘C) to copy it.';

/**
 * A link without its USDZ (just made, or made where the file could not be): this browser makes it
 * from the link's GLB with the viewer's export and sends it, for AR Quick Look on iPhone and iPad.
 * It goes on if the dialog closes. An older server (no `usdz_url` at all) is left alone.
 */
function useUsdzForLink(
  share: Share | null | undefined,
  usdz: ReturnType<typeof useUploadShareUsdz>,
) {
  const { mutate: sendUsdz, isIdle: usdzIdle } = usdz;
  useEffect(() => {
    if (!share || share.usdz_url !== null || !usdzIdle) return;
    const glb = `/api/shares/${encodeURIComponent(share.token)}/model.glb`;
    sendUsdz(async () => (await loadUsdzMaker()).usdzOfUrl(glb));
  }, [share, usdzIdle, sendUsdz]);
}

/** For a phone: the link's QR code (not for a loopback link), and whether its page offers AR. */
function OnAPhone({
  share,
  title,
  usdz,
}: {
  share: Share;
  title: string;
  usdz: ReturnType<typeof useUploadShareUsdz>;
}) {
  // A loopback link opens on this computer only: no code for a phone's camera.
  const local = onlyOnThisComputer(share.url);
  return (
    <div className="share-dialog__phone">
      {!local && <QrCode text={share.url} label={`QR code of the link to ${title}`} size={136} />}
      <div className="share-dialog__phone-text">
        {!local && (
          <p className="small">
            <strong>On a phone:</strong> point its camera at the code to open the page.
          </p>
        )}
        {share.usdz_url ? (
          <p className="muted small" data-testid="share-ar-status">
            Its page offers “View in AR” on iPhone, iPad and Android.
          </p>
        ) : usdz.isError ? (
          <div className="share-dialog__ar-error">
            <p className="error small" role="alert">
              Could not make the model’s file for AR on iPhone and iPad:{' '}
              {describeError(usdz.error).message}
            </p>
            <button type="button" className="small" onClick={() => usdz.reset()}>
              Try again
            </button>
          </div>
        ) : share.usdz_url === null ? (
          <p className="muted small" data-testid="share-ar-status">
            Making the model’s file for AR on iPhone and iPad…
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The share dialog of one model: make its public link, copy the link or an `<iframe>` snippet,
 * open the page, or stop sharing (asked first). A modal <dialog>: focus stays inside, Escape or
 * Done closes it, and focus goes back to the button that opened it.
 */
export default function ShareDialog({
  target,
  onClose,
}: {
  target: ShareTarget;
  onClose: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);

  const link = useShareLink(target.id);
  const create = useCreateShare(target.id);
  const revoke = useRevokeShare(target.id);
  const usdz = useUploadShareUsdz(target.id);
  const share = link.data;
  useUsdzForLink(share, usdz);

  // Once it is known whether the model is shared, focus goes to what to do next (unless the user
  // has already moved it).
  const ready = share !== undefined;
  useEffect(() => {
    if (!ready || document.activeElement !== headingRef.current) return;
    (share ? copyRef : createRef).current?.focus();
  }, [ready, share]);

  return (
    <Modal
      title={<>Share {target.title}</>}
      intro="Anyone with the link can turn this model in 3D and download it, without a key. Your key, your other models and who made it stay private, and search engines are asked not to list it."
      onClose={onClose}
      testId="share-dialog"
      className="share-dialog"
      headingRef={headingRef}
    >
      {link.isPending ? (
        <p className="muted" role="status">
          Checking whether it is shared…
        </p>
      ) : link.isError && share === undefined ? (
        <div className="modal__error" role="alert">
          <p>Could not tell whether it is shared: {describeError(link.error).message}</p>
          <button type="button" className="small" onClick={() => void link.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <PublicLinkPanel
          share={share ?? null}
          what="model"
          className="share-dialog__link"
          create={{
            run: (onSuccess) => create.mutate(undefined, { onSuccess }),
            isPending: create.isPending,
            error: create.error,
            reset: create.reset,
            said: 'Link created. Anyone with it can see this model.',
          }}
          revoke={{
            run: (onSuccess) => revoke.mutate(undefined, { onSuccess }),
            isPending: revoke.isPending,
            error: revoke.error,
            reset: revoke.reset,
          }}
          copyRef={copyRef}
          createRef={createRef}
          openInRow={false}
          stopWarning="Stop sharing? The link and every embed stop working at once, for everyone."
          stopped="Sharing stopped: the link and its embeds no longer work."
          copyFailed={COPY_FAILED}
          onStopped={() => usdz.reset()}
          extra={({ open, say }) =>
            share && (
              <>
                <OnAPhone share={share} title={target.title} usdz={usdz} />
                <EmbedCode html={share.embed_html} open={open} say={say} copyFailed={COPY_FAILED} />
              </>
            )
          }
        />
      )}
    </Modal>
  );
}

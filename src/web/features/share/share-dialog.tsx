import { useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import {
  useCreateShare,
  useRevokeShare,
  useShareLink,
  useUploadShareUsdz,
} from '../../api/share.ts';
import { describeError } from '../../lib/describe-error.ts';
import { copyText } from '../../lib/copy-text.ts';
import { formatDateTime } from '../../lib/entry-format.ts';
import { loadUsdzMaker } from '../viewer/index.ts';
import { QrCode } from './qr-code.tsx';
import './share.css';

/** What the share dialog needs to know of a model: which task, and what to call it. */
export interface ShareTarget {
  id: string;
  /** "“a small red vase”", "chair.png", "3 photos". */
  title: string;
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
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const stopRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const embedRef = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const introId = useId();
  const urlId = useId();
  const embedId = useId();
  const confirmId = useId();

  const link = useShareLink(target.id);
  const create = useCreateShare(target.id);
  const revoke = useRevokeShare(target.id);
  const usdz = useUploadShareUsdz(target.id);
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState('');
  const share = link.data;

  // A link without its USDZ (just made, or made where the file could not be): this browser makes
  // it from the link's GLB with the viewer's export and sends it, for AR Quick Look on iPhone and
  // iPad. It goes on if the dialog closes. An older server (no `usdz_url` at all) is left alone.
  const { mutate: sendUsdz, isIdle: usdzIdle } = usdz;
  useEffect(() => {
    if (!share || share.usdz_url !== null || !usdzIdle) return;
    const glb = `/api/shares/${encodeURIComponent(share.token)}/model.glb`;
    sendUsdz(async () => (await loadUsdzMaker()).usdzOfUrl(glb));
  }, [share, usdzIdle, sendUsdz]);

  // Modal from the start; the browser gives focus back to the opener when it closes.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    headingRef.current?.focus();
  }, []);

  // Once it is known whether the model is shared, focus goes to what to do next (unless the user
  // has already moved it).
  const ready = share !== undefined;
  useEffect(() => {
    if (!ready || document.activeElement !== headingRef.current) return;
    (share ? copyRef : createRef).current?.focus();
  }, [ready, share]);

  // After creating or revoking, focus goes to what comes next once it is drawn: the query's
  // answer may render after the mutation's onSuccess (and after the next frame).
  const focusNext = useRef<'copy' | 'create' | null>(null);
  useEffect(() => {
    const next = focusNext.current;
    if (next === 'copy' && share) copyRef.current?.focus();
    else if (next === 'create' && share === null) createRef.current?.focus();
    else return;
    focusNext.current = null;
  }, [share]);

  const make = () => {
    setStatus('');
    create.mutate(undefined, {
      onSuccess: () => {
        setStatus('Link created. Anyone with it can see this model.');
        // Drawn already, or focused by the effect above once it is.
        if (copyRef.current) copyRef.current.focus();
        else focusNext.current = 'copy';
      },
    });
  };

  const copy = async (what: 'link' | 'embed') => {
    if (!share) return;
    const ok =
      what === 'link'
        ? await copyText(share.url, urlRef.current)
        : await copyText(share.embed_html, embedRef.current);
    // A trailing no-break space alternates so that copying twice is announced twice.
    const said = ok
      ? what === 'link'
        ? 'Link copied.'
        : 'Embed code copied.'
      : 'Could not copy: the text is selected, press Ctrl+C (⌘C) to copy it.';
    setStatus((prev) => (prev === said ? `${said}\u00a0` : said));
  };

  const ask = () => {
    revoke.reset();
    flushSync(() => setConfirming(true));
    keepRef.current?.focus();
  };
  const keep = () => {
    flushSync(() => setConfirming(false));
    stopRef.current?.focus();
  };
  const stop = () => {
    revoke.mutate(undefined, {
      onSuccess: () => {
        flushSync(() => {
          setConfirming(false);
          setStatus('Sharing stopped: the link and its embeds no longer work.');
        });
        usdz.reset();
        if (createRef.current) createRef.current.focus();
        else focusNext.current = 'create';
      },
    });
  };

  const close = () => dialogRef.current?.close();

  return (
    <dialog
      ref={dialogRef}
      className="share-dialog"
      aria-labelledby={titleId}
      aria-describedby={introId}
      onClose={onClose}
      // A click on the backdrop (the dialog box itself, outside its content) closes it.
      onClick={(e) => {
        if (e.target === dialogRef.current) close();
      }}
      data-testid="share-dialog"
    >
      <div className="share-dialog__body">
        <div className="share-dialog__head">
          <h2 id={titleId} ref={headingRef} tabIndex={-1}>
            Share {target.title}
          </h2>
          <button
            type="button"
            className="share-dialog__close small"
            onClick={close}
            aria-label="Close"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <p id={introId} className="muted small">
          Anyone with the link can turn this model in 3D and download it, without a key. Your key,
          your other models and who made it stay private, and search engines are asked not to list
          it.
        </p>

        {link.isPending ? (
          <p className="muted" role="status">
            Checking whether it is shared…
          </p>
        ) : link.isError && share === undefined ? (
          <div className="share-dialog__error" role="alert">
            <p>Could not tell whether it is shared: {describeError(link.error).message}</p>
            <button type="button" className="small" onClick={() => void link.refetch()}>
              Try again
            </button>
          </div>
        ) : share ? (
          <div className="share-dialog__live">
            <label htmlFor={urlId}>Public link</label>
            <div className="share-dialog__row">
              <input
                id={urlId}
                ref={urlRef}
                type="url"
                readOnly
                value={share.url}
                onFocus={(e) => e.currentTarget.select()}
                data-testid="share-url"
              />
              <button
                type="button"
                className="primary"
                ref={copyRef}
                onClick={() => void copy('link')}
              >
                Copy link
              </button>
            </div>
            <div className="share-dialog__phone">
              <QrCode
                text={share.url}
                label={`QR code of the link to ${target.title}`}
                size={136}
              />
              <div className="share-dialog__phone-text">
                <p className="small">
                  <strong>On a phone:</strong> point its camera at the code to open the page.
                </p>
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
            <label htmlFor={embedId}>Embed on a web page</label>
            <textarea
              id={embedId}
              ref={embedRef}
              readOnly
              rows={4}
              value={share.embed_html}
              onFocus={(e) => e.currentTarget.select()}
              data-testid="share-embed"
            />
            <div className="share-dialog__row share-dialog__row--end">
              <button type="button" onClick={() => void copy('embed')}>
                Copy embed code
              </button>
              <a className="button" href={share.url} target="_blank" rel="noopener noreferrer">
                Open the page<span className="visually-hidden"> (in a new tab)</span>
              </a>
            </div>
            <p className="muted small">Shared since {formatDateTime(share.created_ms)}.</p>

            {confirming ? (
              <div className="share-dialog__confirm" role="group" aria-labelledby={confirmId}>
                <p id={confirmId}>
                  Stop sharing? The link and every embed stop working at once, for everyone.
                </p>
                <div className="share-dialog__row">
                  <button
                    type="button"
                    className="danger"
                    onClick={stop}
                    disabled={revoke.isPending}
                  >
                    {revoke.isPending ? 'Stopping…' : 'Stop sharing'}
                  </button>
                  <button type="button" ref={keepRef} onClick={keep} disabled={revoke.isPending}>
                    Keep sharing
                  </button>
                </div>
                {revoke.isError && (
                  <p className="error small" role="alert">
                    Could not stop sharing: {describeError(revoke.error).message}
                  </p>
                )}
              </div>
            ) : (
              <button
                type="button"
                className="danger share-dialog__stop"
                ref={stopRef}
                onClick={ask}
              >
                Stop sharing…
              </button>
            )}
          </div>
        ) : (
          <div className="share-dialog__off">
            <p>This model is not shared.</p>
            <button
              type="button"
              className="primary"
              ref={createRef}
              onClick={make}
              disabled={create.isPending}
            >
              {create.isPending ? 'Creating the link…' : 'Create link'}
            </button>
            {create.isError && (
              <p className="error small" role="alert">
                Could not create the link: {describeError(create.error).message}
              </p>
            )}
          </div>
        )}

        <p className="share-dialog__status small" role="status">
          {status}
        </p>
        <div className="share-dialog__foot">
          <button type="button" onClick={close}>
            Done
          </button>
        </div>
      </div>
    </dialog>
  );
}

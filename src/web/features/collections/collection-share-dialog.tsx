import { useRef, useState, useId } from 'react';
import { flushSync } from 'react-dom';
import type { Collection } from '../../../contract/index.ts';
import { useCollections, useShareCollection, useUnshareCollection } from '../../api/collections.ts';
import { copyText } from '../../lib/copy-text.ts';
import { describeError } from '../../lib/describe-error.ts';
import { formatDateTime } from '../../lib/entry-format.ts';
import { Modal } from './modal.tsx';

/**
 * A collection's public page: make its link, copy it, open it, or stop sharing (asked first).
 * Its state is the collection's own `share` (the list is read again after each change).
 */
export default function CollectionShareDialog({
  collection: opened,
  onClose,
}: {
  collection: Pick<Collection, 'id' | 'name' | 'share'>;
  onClose: () => void;
}) {
  const collections = useCollections();
  const collection = collections.data?.find((c) => c.id === opened.id) ?? opened;
  const share = collection.share;
  const create = useShareCollection();
  const revoke = useUnshareCollection();
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState('');
  const createRef = useRef<HTMLButtonElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const stopRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const urlId = useId();
  const confirmId = useId();

  const say = (message: string) =>
    setStatus((prev) => (prev === message ? `${message}\u00a0` : message));

  const make = () => {
    setStatus('');
    create.mutate(collection.id, {
      onSuccess: () => {
        flushSync(() =>
          say('Link created. Anyone with it can see every model in this collection.'),
        );
        copyRef.current?.focus();
      },
    });
  };
  const copy = async () => {
    if (!share) return;
    const ok = await copyText(share.url, urlRef.current);
    say(
      ok ? 'Link copied.' : 'Could not copy: the link is selected, press Ctrl+C (⌘C) to copy it.',
    );
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
  const stop = () =>
    revoke.mutate(collection.id, {
      onSuccess: () => {
        flushSync(() => {
          setConfirming(false);
          say('Sharing stopped: the link no longer works.');
        });
        createRef.current?.focus();
      },
    });

  return (
    <Modal
      title={<>Share “{collection.name}”</>}
      intro="Anyone with the link sees this collection’s name and its finished models, can turn each in 3D and download it, without a key. Your key, your other models and who made them stay private; search engines are asked not to list it."
      onClose={onClose}
      testId="collection-share-dialog"
      initialFocus={share ? copyRef : createRef}
    >
      <>
        {share ? (
          <div className="collection-share__live">
            <label htmlFor={urlId}>Public link</label>
            <div className="collection-name__row">
              <input
                id={urlId}
                ref={urlRef}
                type="url"
                readOnly
                value={share.url}
                onFocus={(e) => e.currentTarget.select()}
              />
              <button type="button" className="primary" ref={copyRef} onClick={() => void copy()}>
                Copy link
              </button>
              <a className="button" href={share.url} target="_blank" rel="noopener noreferrer">
                Open the page<span className="visually-hidden"> (in a new tab)</span>
              </a>
            </div>
            <p className="muted small">Shared since {formatDateTime(share.created_ms)}.</p>
            {confirming ? (
              <div className="collection-confirm" role="group" aria-labelledby={confirmId}>
                <p id={confirmId}>Stop sharing? The link stops working at once, for everyone.</p>
                <div className="collection-name__row">
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
                className="danger collection-share__stop"
                ref={stopRef}
                onClick={ask}
              >
                Stop sharing…
              </button>
            )}
          </div>
        ) : (
          <div className="collection-share__off">
            <p>This collection is not shared.</p>
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
        <p className="collection-dialog__status small" role="status">
          {status}
        </p>
      </>
    </Modal>
  );
}

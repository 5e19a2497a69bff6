import { useRef } from 'react';
import type { Collection } from '../../../contract/index.ts';
import { useCollections, useShareCollection, useUnshareCollection } from '../../api/collections.ts';
import { Modal } from '../../ui/modal.tsx';
import { EmbedCode, PublicLinkPanel } from '../share/index.ts';
import './collections.css';

const COPY_FAILED = 'Could not copy: the text is selected, press Ctrl+C (⌘C) to copy it.';

/**
 * A collection's public page: make its link, copy it or its `<iframe>` snippet (titled with the
 * collection's name, so it follows a rename), open it, or stop sharing (asked first). Its state
 * is the collection's own `share` (the list is read again after each change).
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
  const embedHtml = share?.embed_html;
  const create = useShareCollection();
  const revoke = useUnshareCollection();
  const createRef = useRef<HTMLButtonElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);

  return (
    <Modal
      title={<>Share “{collection.name}”</>}
      intro="Anyone with the link sees this collection’s name and its finished models, can turn each in 3D and download it, without a key. Your key, your other models and who made them stay private; search engines are asked not to list it."
      onClose={onClose}
      testId="collection-share-dialog"
      initialFocus={share ? copyRef : createRef}
    >
      <PublicLinkPanel
        share={share}
        what="collection"
        className="collection-share"
        create={{
          run: (onSuccess) => create.mutate(collection.id, { onSuccess }),
          isPending: create.isPending,
          error: create.error,
          reset: create.reset,
          said: 'Link created. Anyone with it can see every model in this collection.',
        }}
        revoke={{
          run: (onSuccess) => revoke.mutate(collection.id, { onSuccess }),
          isPending: revoke.isPending,
          error: revoke.error,
          reset: revoke.reset,
        }}
        copyRef={copyRef}
        createRef={createRef}
        // "Open the page" goes beside Copy embed code, as in a model's dialog (an older server
        // sends no snippet: then beside Copy link).
        openInRow={!embedHtml}
        stopWarning="Stop sharing? The link and every embed stop working at once, for everyone."
        stopped="Sharing stopped: the link and its embeds no longer work."
        copyFailed={COPY_FAILED}
        extra={({ open, say }) =>
          embedHtml && <EmbedCode html={embedHtml} open={open} say={say} copyFailed={COPY_FAILED} />
        }
      />
    </Modal>
  );
}

import { useState } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { promptExcerpt } from '../../lib/entry-format.ts';

/**
 * The model's own picture when a browser has drawn one (`thumbnail_url`), with what it was made
 * from beside it: the input photo small in a corner, or the prompt beneath. Until then, the input.
 */
export function Thumbnail({ entry, when }: { entry: LibraryEntry; when: string }) {
  const [modelBroken, setModelBroken] = useState(false);
  if (entry.thumbnail_url && !modelBroken) {
    const first = entry.images[0];
    const views = entry.images.length;
    return (
      <div className="gallery-thumb gallery-model">
        <img
          src={entry.thumbnail_url}
          alt={`3D model from the ${entry.model} task of ${when}`}
          loading="lazy"
          decoding="async"
          onError={() => setModelBroken(true)}
        />
        {first?.upload ? (
          <img
            className="gallery-input"
            src={first.upload}
            alt={`Input photo${views > 1 ? ` (1 of ${views})` : ''}`}
            loading="lazy"
            decoding="async"
            onError={(e) => (e.currentTarget.hidden = true)}
          />
        ) : entry.prompt?.trim() ? (
          <p className="gallery-input-prompt">
            <span className="visually-hidden">Prompt: </span>“{promptExcerpt(entry.prompt)}”
          </p>
        ) : null}
        {views > 1 && <span className="gallery-views small">{views} views</span>}
      </div>
    );
  }
  return <InputThumbnail entry={entry} when={when} />;
}

/** The input as the card's picture: the first photo, the prompt, or a placeholder. */
function InputThumbnail({ entry, when }: { entry: LibraryEntry; when: string }) {
  const first = entry.images[0];
  const views = entry.images.length;
  const [broken, setBroken] = useState(false);

  if (first?.upload && !broken) {
    return (
      <div className="gallery-thumb">
        <img
          src={first.upload}
          alt={`Input photo for ${entry.model} task from ${when}`}
          loading="lazy"
          decoding="async"
          onError={() => setBroken(true)}
        />
        {views > 1 && <span className="gallery-views small">{views} views</span>}
      </div>
    );
  }
  if (entry.prompt?.trim()) {
    return (
      <div className="gallery-thumb gallery-prompt">
        <p>
          <span className="visually-hidden">Prompt: </span>“{promptExcerpt(entry.prompt)}”
        </p>
      </div>
    );
  }
  return (
    <div className="gallery-thumb gallery-placeholder">
      <p className="muted small">
        {first ? (broken ? 'Photo not available' : 'Photo from a link') : 'No preview'}
      </p>
    </div>
  );
}

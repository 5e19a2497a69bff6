// The public page of a shared collection (`/c/{token}`, decision 0087), and its frameable variant
// for an <iframe> (`/c/{token}/embed`: no top bar). No key, no nav, no balance: the collection's
// name, a picture of every model in it, and the one chosen in Kiln's viewer (the choice is in the
// address, `?m=2`, so a link can point at one model). The server has already put the link preview
// tags in the page's <head>.
import { Suspense, useEffect, useRef } from 'react';
import type { PublicCollectionModel } from '../../../contract/index.ts';
import { useSharedCollection } from '../../api/collections.ts';
import { slugify } from '../../lib/file-name.ts';
import { setSearch, useSearch } from '../../lib/router.ts';
import { KilnCredit, PublicGone, PublicHead, PublicLoadFailed, factsLine } from '../share/index.ts';
import { LazyModelViewer } from '../viewer/index.ts';
import { chosenModel, modelSearch } from './collection-choice.ts';
import { modelCount } from './collection-name.ts';
import './collections.css';

/** A link that does not work. */
function Gone({ embed }: { embed: boolean }) {
  return (
    <div className="collection-page">
      {!embed && <PublicHead what="collection" />}
      <PublicGone what="collection" embed={embed} tight={false} />
    </div>
  );
}

/** A model's picture, or a drawn placeholder when none was kept. */
function Picture({ model }: { model: PublicCollectionModel }) {
  return model.thumbnail_url ? (
    <img src={model.thumbnail_url} alt="" loading="lazy" width="256" height="256" />
  ) : (
    <span className="collection-page__placeholder" aria-hidden="true">
      <svg width="40" height="40" viewBox="0 0 24 24" fill="none">
        <path
          d="M12 2 3 7v10l9 5 9-5V7l-9-5Zm0 0v20M3 7l9 5 9-5"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  );
}

export default function CollectionPage({ token, embed }: { token: string; embed: boolean }) {
  const shared = useSharedCollection(token);
  const collection = shared.data;
  const search = useSearch();
  const chosen = collection ? chosenModel(collection.models, search) : null;
  const stageRef = useRef<HTMLElement>(null);

  useEffect(() => {
    document.title =
      collection === null
        ? 'Link not found · Kiln'
        : collection
          ? `${collection.name} · Kiln`
          : 'Kiln';
  }, [collection]);

  if (shared.isPending)
    return (
      <p className="public-page__gone muted" role="status">
        Loading the collection…
      </p>
    );
  if (shared.isError && collection === undefined)
    return (
      <PublicLoadFailed
        what="collection"
        error={shared.error}
        onRetry={() => void shared.refetch()}
      />
    );
  if (!collection) return <Gone embed={embed} />;

  const choose = (model: PublicCollectionModel) => {
    setSearch(modelSearch(search, model.index));
    // On a phone the viewer is above the pictures: bring it into view.
    stageRef.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  };

  return (
    <div
      className={`collection-page${embed ? ' collection-page--embed' : ''}`}
      data-testid="collection-page"
      data-embed={embed || undefined}
    >
      {!embed && <PublicHead what="collection" />}
      <main id="main" className="collection-page__main">
        <div className="collection-page__intro">
          <h1 className="collection-page__title">{collection.name}</h1>
          <p className="muted">{modelCount(collection.models.length)}</p>
        </div>
        {chosen ? (
          <section className="collection-page__stage" ref={stageRef} aria-labelledby="chosen-title">
            <Suspense fallback={<div className="viewer-placeholder">Loading the viewer…</div>}>
              <LazyModelViewer
                key={chosen.index}
                url={chosen.model_url}
                // Named after the collection, then the model chosen (issue 32): in an <iframe> on
                // another site this is what the page's model is called.
                label={`${collection.name}: ${chosen.title}`}
                fileName={`kiln-${slugify(chosen.title) || 'model'}`}
                openFiles={false}
                className="collection-page__viewer"
              />
            </Suspense>
            <div className="collection-page__caption">
              <h2 id="chosen-title">{chosen.title}</h2>
              {chosen.name && chosen.prompt?.trim() && (
                <p className="collection-page__facts">“{chosen.prompt.trim()}”</p>
              )}
              <p className="muted small collection-page__facts">{factsLine(chosen)}</p>
            </div>
          </section>
        ) : (
          <p className="collection-page__empty">
            Nothing to show yet: no model in this collection is finished.
          </p>
        )}
        {collection.models.length > 0 && (
          <section aria-labelledby="collection-models">
            <h2 id="collection-models" className="visually-hidden">
              Models in this collection
            </h2>
            <ul className="collection-page__grid">
              {collection.models.map((model) => {
                const on = chosen?.index === model.index;
                return (
                  <li key={model.index}>
                    <a
                      href={`${location.pathname}${modelSearch(search, model.index)}`}
                      className={`collection-page__pick${on ? ' is-on' : ''}`}
                      aria-current={on ? 'true' : undefined}
                      onClick={(e) => {
                        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                        e.preventDefault();
                        choose(model);
                      }}
                    >
                      <Picture model={model} />
                      <span className="collection-page__pick-title">{model.title}</span>
                    </a>
                  </li>
                );
              })}
            </ul>
          </section>
        )}
        {embed ? (
          <p className="collection-page__credit">
            <a href={collection.url} target="_blank" rel="noopener">
              Made with Kiln
              <span className="visually-hidden"> (opens the collection’s page in a new tab)</span>
            </a>
          </p>
        ) : (
          <KilnCredit className="collection-page__credit" />
        )}
      </main>
    </div>
  );
}

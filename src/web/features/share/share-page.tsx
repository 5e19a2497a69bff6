// The public page of a shared model (`/s/{token}`), and its frameable variant for an <iframe>
// (`/s/{token}/embed`). No key, no nav, no balance: the model in Kiln's viewer, what it is, and
// where it was made. The server has already put the link preview tags in the page's <head>.
import { Suspense, useCallback, useEffect, useLayoutEffect, useState } from 'react';
import type { PublicShare } from '../../../contract/index.ts';
import { useOwnsShare, useSharedModel } from '../../api/share.ts';
import { dropFirstPaint, firstFrameDrawn } from '../../lib/inline-share.ts';
import { LazyModelViewer, handOverFirstFrame } from '../viewer/index.ts';
import { KilnCredit, PublicGone, PublicHead, PublicLoadFailed, factsLine } from './public-page.tsx';
import { ViewInAr } from './view-in-ar.tsx';
import './share.css';

/** The longest the page waits behind a drawn first frame for its viewer to show the model. */
const HAND_OVER_AT_MOST_MS = 30_000;

/** A file name for the viewer's downloads: the title's words, or "kiln-model". */
function fileNameOf(model: PublicShare): string {
  const words = model.title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `kiln-${words || 'model'}`;
}

/** A link that does not work; in a frame, without the top bar. */
function Gone({ embed }: { embed: boolean }) {
  const message = <PublicGone what="model" embed={embed} tight={embed} />;
  if (embed) return message;
  return (
    <div className="share-page">
      <PublicHead what="model" />
      {message}
    </div>
  );
}

/**
 * Where the viewer will be, while its code loads: the model's kept picture (the page's largest
 * paint, at once), in the stage's shape.
 */
function PosterWhileLoading({ picture, embed }: { picture: string | null; embed: boolean }) {
  return (
    <div className={`share-page__poster-frame${embed ? ' share-page__poster-frame--embed' : ''}`}>
      {picture && <img className="share-page__poster" src={picture} alt="" />}
      <p className="visually-hidden" role="status">
        Loading the viewer…
      </p>
    </div>
  );
}

export default function SharePage({ token, embed }: { token: string; embed: boolean }) {
  const shared = useSharedModel(token);
  // Its owner (with their key in this browser) may make a turntable of it; visitors may not.
  const owner = useOwnsShare(token);
  const model = shared.data;
  // The server drew this page's first look (first-paint.ts), maybe with the model drawn into it
  // (first-frame.ts). Then this page waits behind it, unseen, until its viewer shows the same
  // view (or an error); else it takes the first look's place at once, before a paint.
  const [drawn] = useState(firstFrameDrawn);
  const [shown, setShown] = useState(false);
  const waiting = drawn && !shown && !!model;
  const onShown = useCallback(() => setShown(true), []);
  useLayoutEffect(() => {
    if (waiting) return;
    dropFirstPaint();
    if (drawn) handOverFirstFrame();
  }, [waiting, drawn]);
  // A viewer that never says (its code failed to load): the page is shown all the same.
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(onShown, HAND_OVER_AT_MOST_MS);
    return () => clearTimeout(timer);
  }, [waiting, onShown]);

  useEffect(() => {
    document.title =
      model === null ? 'Link not found · Kiln' : model ? `${model.title} · Kiln` : 'Kiln';
  }, [model]);

  if (shared.isPending)
    return (
      <p
        className={`share-page__loading muted${embed ? ' share-page__loading--embed' : ''}`}
        role="status"
      >
        Loading the model…
      </p>
    );
  if (shared.isError && model === undefined)
    return (
      <PublicLoadFailed what="model" error={shared.error} onRetry={() => void shared.refetch()} />
    );
  if (!model) return <Gone embed={embed} />;

  const viewer = (
    <Suspense fallback={<PosterWhileLoading picture={model.thumbnail_url} embed={embed} />}>
      <LazyModelViewer
        url={model.model_url}
        label={`3D model: ${model.title}`}
        fileName={fileNameOf(model)}
        openFiles={false}
        turntable={owner && !embed}
        poster={model.thumbnail_url}
        className={embed ? 'share-page__viewer share-page__viewer--embed' : 'share-page__viewer'}
        onShown={waiting ? onShown : undefined}
      />
    </Suspense>
  );

  if (embed)
    return (
      <main
        id="main"
        className={`share-embed${waiting ? ' share-page--behind' : ''}`}
        data-testid="share-page"
        data-embed="true"
      >
        <h1 className="visually-hidden">{model.title}</h1>
        {viewer}
        <a className="share-embed__credit" href={model.url} target="_blank" rel="noopener">
          <img src="/favicon.svg" alt="" width="14" height="14" /> Made with Kiln
          <span className="visually-hidden"> (opens the model’s page in a new tab)</span>
        </a>
      </main>
    );

  return (
    <div className={`share-page${waiting ? ' share-page--behind' : ''}`} data-testid="share-page">
      <PublicHead what="model" />
      <main id="main" className="share-page__main">
        <h1 className="share-page__title">{model.title}</h1>
        {/* A named model: what it was made from stays beside its name. */}
        {model.name && model.prompt?.trim() && (
          <p className="share-page__facts">“{model.prompt.trim()}”</p>
        )}
        <p className="muted share-page__facts">{factsLine(model)}</p>
        {viewer}
        <ViewInAr model={model} />
        <KilnCredit />
      </main>
    </div>
  );
}

// The public page of a shared model (`/s/{token}`), and its frameable variant for an <iframe>
// (`/s/{token}/embed`). No key, no nav, no balance: the model in Kiln's viewer, what it is, and
// where it was made. The server has already put the link preview tags in the page's <head>.
import { Suspense, useEffect } from 'react';
import type { PublicShare } from '../../../contract/index.ts';
import { useOwnsShare, useSharedModel } from '../../api/share.ts';
import { describeError } from '../../lib/describe-error.ts';
import { formatDate } from '../../lib/entry-format.ts';
import { LazyModelViewer } from '../viewer/index.ts';
import { ViewInAr } from './view-in-ar.tsx';
import './share.css';

/** "From a prompt · beta-text · 24 Nov 2026". */
function factsLine(model: PublicShare): string {
  const from =
    model.input === 'prompt'
      ? 'From a text prompt'
      : model.input === 'photos'
        ? 'From photos'
        : 'From a photo';
  return `${from} · ${model.model} · ${formatDate(model.created * 1000)}`;
}

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

/** The page's top bar: where it was made, and that it is a shared model. */
function Head() {
  return (
    <header className="share-page__head">
      <a href="/" className="brand" aria-label="Kiln, home">
        <img src="/favicon.svg" alt="" width="22" height="22" /> Kiln
      </a>
      <span className="muted small">Shared model</span>
    </header>
  );
}

function Gone({ embed }: { embed: boolean }) {
  const message = (
    <main id="main" className={`share-page__gone${embed ? ' share-page__gone--embed' : ''}`}>
      <h1>This link does not work</h1>
      <p>
        The model is no longer shared, or the address is not quite right. Ask whoever sent it for a
        new link.
      </p>
      <p>
        <a href="/" target={embed ? '_blank' : undefined} rel="noopener">
          Kiln
        </a>{' '}
        makes 3D models from photos and prompts.
      </p>
    </main>
  );
  if (embed) return message;
  return (
    <div className="share-page">
      <Head />
      {message}
    </div>
  );
}

export default function SharePage({ token, embed }: { token: string; embed: boolean }) {
  const shared = useSharedModel(token);
  // Its owner (with their key in this browser) may make a turntable of it; visitors may not.
  const owner = useOwnsShare(token);
  const model = shared.data;

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
      <main id="main" className="share-page__gone" role="alert">
        <h1>The model could not be loaded</h1>
        <p>{describeError(shared.error).message}</p>
        <button type="button" onClick={() => void shared.refetch()}>
          Try again
        </button>
      </main>
    );
  if (!model) return <Gone embed={embed} />;

  const viewer = (
    <Suspense fallback={<div className="viewer-placeholder">Loading the viewer…</div>}>
      <LazyModelViewer
        url={model.model_url}
        label={`3D model: ${model.title}`}
        fileName={fileNameOf(model)}
        openFiles={false}
        turntable={owner && !embed}
        className={embed ? 'share-page__viewer share-page__viewer--embed' : 'share-page__viewer'}
      />
    </Suspense>
  );

  if (embed)
    return (
      <main id="main" className="share-embed" data-testid="share-page" data-embed="true">
        <h1 className="visually-hidden">{model.title}</h1>
        {viewer}
        <a className="share-embed__credit" href={model.url} target="_blank" rel="noopener">
          <img src="/favicon.svg" alt="" width="14" height="14" /> Made with Kiln
          <span className="visually-hidden"> (opens the model’s page in a new tab)</span>
        </a>
      </main>
    );

  return (
    <div className="share-page" data-testid="share-page">
      <Head />
      <main id="main" className="share-page__main">
        <h1 className="share-page__title">
          {model.name ? model.title : model.input === 'prompt' ? `“${model.title}”` : model.title}
        </h1>
        {/* A named model: what it was made from stays beside its name. */}
        {model.name && model.prompt?.trim() && (
          <p className="share-page__facts">“{model.prompt.trim()}”</p>
        )}
        <p className="muted share-page__facts">{factsLine(model)}</p>
        {viewer}
        <ViewInAr model={model} />
        <p className="share-page__credit">
          Made with{' '}
          <a href="/" className="share-page__kiln">
            Kiln
          </a>
          , a browser studio that turns photos and prompts into 3D models.
        </p>
      </main>
    </div>
  );
}

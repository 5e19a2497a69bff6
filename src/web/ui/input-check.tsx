import { useEffect, useState } from 'react';
import type { CutoutCheck, ViewsCheck } from '../api/input-check.ts';

/**
 * A photo with the demo generator's cut-out laid over it (mock mode; issue 32, item 2): clear
 * where the object is kept, dark over the backdrop, red over what stood out but is left out.
 * Without a cut-out (asked, refused, not mock mode) it is the photo alone.
 */
export function CutoutFigure({
  src,
  alt,
  check,
}: {
  src: string;
  alt: string;
  check: CutoutCheck | undefined;
}) {
  const overlay = check?.overlay ?? null;
  return (
    <div
      className="cutout-figure"
      data-testid="cutout-figure"
      data-cutout={overlay ? 'shown' : 'none'}
    >
      <img src={src} alt={alt} />
      {overlay && <img className="cutout-overlay" src={overlay} alt="" aria-hidden="true" />}
    </div>
  );
}

/** What the cut-out says in words: what is kept and left out, a caution, or a refusal. */
export function CutoutWords({
  check,
  compact = false,
}: {
  check: CutoutCheck | undefined;
  compact?: boolean;
}) {
  if (!check) return null;
  if (!check.usable)
    return (
      <p className="error small" role="alert" data-testid="cutout-refused">
        Cannot be modelled: {check.message} Choose another photo; nothing is charged.
      </p>
    );
  return (
    <div className="cutout-words small" data-testid="cutout-words">
      {!compact && (
        <p>
          <CutoutKey dropped={check.panel_dropped || check.parts_dropped > 0} /> {check.message}
        </p>
      )}
      {check.warning && (
        <p className="input-warning" role="status" data-testid="cutout-warning">
          {check.warning}
        </p>
      )}
    </div>
  );
}

/** The cut-out's colours, named: kept, backdrop and (when there is any) left out. */
export function CutoutKey({ dropped = true }: { dropped?: boolean }) {
  return (
    <span className="cutout-key" data-testid="cutout-key">
      <span>
        <i className="kept" aria-hidden="true" /> kept
      </span>{' '}
      <span>
        <i className="backdrop" aria-hidden="true" /> backdrop
      </span>
      {dropped && (
        <>
          {' '}
          <span>
            <i className="dropped" aria-hidden="true" /> left out
          </span>
        </>
      )}
    </span>
  );
}

/**
 * Whether the views show one object (mock mode; issue 32, item 4): a warning before paying, or,
 * for a model already made (`made`), that its views disagreed. Nothing when they agree.
 */
export function ViewsVerdict({
  check,
  made = false,
}: {
  check: ViewsCheck | undefined;
  made?: boolean;
}) {
  if (!check || check.agree) return null;
  return (
    <p className="input-warning" role="status" data-testid="views-warning">
      {made ? check.made_message : check.message}
    </p>
  );
}

/**
 * True while `waiting` holds for the same `key`, for at most `ms`: Generate waits for a check
 * this long, then goes ahead without it.
 */
export function useWaitAtMost(waiting: boolean, key: string, ms: number): boolean {
  const [late, setLate] = useState<string | null>(null);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setLate(key), ms);
    return () => clearTimeout(timer);
  }, [waiting, key, ms]);
  return waiting && late !== key;
}

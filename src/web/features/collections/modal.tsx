import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import './collections.css';

/**
 * The collections' dialogs' frame: a modal <dialog> with a heading (focused on opening, unless
 * `initialFocus` names something else), a close button, the content, and Done. Focus stays
 * inside; Escape, Done, × or a click on the backdrop close it, and the browser gives focus back
 * to what opened it.
 */
export function Modal({
  title,
  intro,
  onClose,
  children,
  testId,
  initialFocus,
  done = false,
}: {
  title: ReactNode;
  /** A sentence under the heading, which describes the dialog. */
  intro?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  initialFocus?: RefObject<HTMLElement | null>;
  /** The work is done: the dialog closes (as Done would). */
  done?: boolean;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  const introId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    (initialFocus?.current ?? headingRef.current)?.focus();
    // Once, on opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const close = () => {
    const dialog = dialogRef.current;
    if (dialog?.open) dialog.close();
    else onClose();
  };
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (done) closeRef.current();
  }, [done]);

  return (
    <dialog
      ref={dialogRef}
      className="collection-dialog"
      aria-labelledby={titleId}
      aria-describedby={intro ? introId : undefined}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog box itself, outside its content) closes it.
        if (e.target === dialogRef.current) close();
      }}
      data-testid={testId}
    >
      <div className="collection-dialog__body">
        <div className="collection-dialog__head">
          <h2 id={titleId} ref={headingRef} tabIndex={-1}>
            {title}
          </h2>
          <button
            type="button"
            className="collection-dialog__close small"
            onClick={close}
            aria-label="Close"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {intro && (
          <p id={introId} className="muted small">
            {intro}
          </p>
        )}
        {children}
        <div className="collection-dialog__foot">
          <button type="button" onClick={close}>
            Done
          </button>
        </div>
      </div>
    </dialog>
  );
}

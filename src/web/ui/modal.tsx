import { useEffect, useId, useRef, type FormEvent, type ReactNode, type RefObject } from 'react';
import './modal.css';

/**
 * The SPA's one dialog frame: a modal <dialog> with a heading (focused on opening, unless
 * `initialFocus` names something else, or is `false` to leave it to the browser), a close button,
 * the content, and Done. Focus stays inside; Escape, Done, × or a click on the backdrop close it
 * (`onDismiss` runs first), and the browser gives focus back to what opened it. Its accessible
 * name is the heading; `intro` is its description.
 */
export function Modal({
  title,
  intro,
  onClose,
  children,
  testId,
  className,
  initialFocus,
  headingRef: givenHeadingRef,
  done = false,
  doneButton = true,
  backdropCloses = true,
  onDismiss,
  onSubmit,
}: {
  title: ReactNode;
  /** A sentence under the heading, which describes the dialog. */
  intro?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** The dialog's own class, for its content's styles (and its width). */
  className?: string;
  initialFocus?: RefObject<HTMLElement | null> | false;
  /** The heading, for a dialog that moves focus on from it later. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  /** The work is done: the dialog closes (as Done would). */
  done?: boolean;
  /** A Done button at the foot (the dialog's own buttons otherwise). */
  doneButton?: boolean;
  /** A click on the backdrop closes it. */
  backdropCloses?: boolean;
  /** Runs as the user dismisses it (Escape, ×, Done, the backdrop), before it closes. */
  onDismiss?: () => void;
  /** The content is a form, submitted with this. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const ownHeadingRef = useRef<HTMLHeadingElement>(null);
  const headingRef = givenHeadingRef ?? ownHeadingRef;
  const titleId = useId();
  const introId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    if (initialFocus !== false) (initialFocus?.current ?? headingRef.current)?.focus();
    // Once, on opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const close = () => {
    onDismiss?.();
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

  const content = (
    <>
      <div className="modal__head">
        {/* Focusable only when it is what takes focus on opening. */}
        <h2 id={titleId} ref={headingRef} tabIndex={initialFocus === false ? undefined : -1}>
          {title}
        </h2>
        <button type="button" className="modal__close small" onClick={close} aria-label="Close">
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {intro && (
        <p id={introId} className="muted small">
          {intro}
        </p>
      )}
      {children}
      {doneButton && (
        <div className="modal__foot">
          <button type="button" onClick={close}>
            Done
          </button>
        </div>
      )}
    </>
  );

  return (
    <dialog
      ref={dialogRef}
      className={className ? `modal ${className}` : 'modal'}
      aria-labelledby={titleId}
      aria-describedby={intro ? introId : undefined}
      onClose={onClose}
      onCancel={onDismiss}
      onClick={(e) => {
        // A click on the backdrop (the dialog box itself, outside its content) closes it.
        if (backdropCloses && e.target === dialogRef.current) close();
      }}
      data-testid={testId}
    >
      {onSubmit ? (
        <form className="modal__body" onSubmit={onSubmit} noValidate>
          {content}
        </form>
      ) : (
        <div className="modal__body">{content}</div>
      )}
    </dialog>
  );
}

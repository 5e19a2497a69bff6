/**
 * A task's progress bar: a percentage where one is known, else an indeterminate bar that moves
 * without inventing one (fal states none). `words` says where it is, for screen readers.
 */
export function ProgressBar({
  label,
  percent,
  words,
}: {
  label: string;
  percent: number | null;
  words: string;
}) {
  if (percent === null)
    return (
      <div
        className="progress indeterminate"
        role="progressbar"
        aria-label={label}
        aria-valuetext={words}
      >
        <span />
      </div>
    );
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}% — ${words}`}
    >
      <span style={{ width: `${percent}%` }} />
    </div>
  );
}

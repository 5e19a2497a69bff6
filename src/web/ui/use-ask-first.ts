import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * Something asked first ("Stop sharing…", "Delete…", "Hide…"): `ask` shows the question and
 * focuses its "keep" answer (`keepRef`); `keep` puts it away and focuses the asking button again
 * (`askRef`). `reset` clears the last try's error as it asks.
 */
export function useAskFirst(reset: () => void) {
  const [confirming, setConfirming] = useState(false);
  const askRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const ask = () => {
    reset();
    flushSync(() => setConfirming(true));
    keepRef.current?.focus();
  };
  const keep = () => {
    flushSync(() => setConfirming(false));
    askRef.current?.focus();
  };
  return { confirming, setConfirming, ask, keep, askRef, keepRef };
}

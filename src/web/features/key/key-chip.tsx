import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import { forgetKey, keyPersistence, maskKey, useApiKey } from '../../lib/key-store.ts';

/** The key in the header, masked, with switch and forget. */
export function KeyChip() {
  const key = useApiKey();
  const queryClient = useQueryClient();
  const menuId = useId();
  const details = useRef<HTMLDetailsElement>(null);
  if (!key) return null;
  const leave = () => {
    forgetKey();
    queryClient.clear();
  };
  return (
    <details className="key-chip" ref={details}>
      <summary aria-label={`API key ${maskKey(key)}: key options`}>
        <svg
          aria-hidden="true"
          width="14"
          height="14"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
        >
          <circle cx="8" cy="15" r="4" />
          <path d="M11 12l9-9M17 6l3 3M15 8l2 2" />
        </svg>{' '}
        <code>{maskKey(key)}</code>
      </summary>
      <div className="menu" id={menuId}>
        <p className="muted small">
          {keyPersistence() === 'device'
            ? 'Remembered on this device.'
            : 'Kept for this session only.'}
        </p>
        <button type="button" onClick={leave}>
          Switch key
        </button>
        <button type="button" className="danger" onClick={leave}>
          Forget key
        </button>
      </div>
    </details>
  );
}

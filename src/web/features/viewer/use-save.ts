import { useState } from 'react';

/**
 * A save dialog's one action (the screenshot's, the slicer STL's): saving while it runs, done once
 * it has, or the error in a sentence that starts with `failed` ("The export failed: …"). `error`
 * can also be set by the dialog's own checks.
 */
export function useSave(failed: string) {
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const save = async (run: () => Promise<void>) => {
    if (saving) return;
    setError(null);
    setSaving(true);
    try {
      await run();
      setDone(true);
    } catch (e) {
      setError(`${failed}: ${e instanceof Error ? e.message : String(e)}`);
      setSaving(false);
    }
  };
  return { error, setError, saving, done, save };
}

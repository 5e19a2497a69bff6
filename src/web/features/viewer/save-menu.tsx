import { useRef } from 'react';

/** The Save menu: screenshots need the view drawn, files only the loaded model. */
const SAVE_ITEMS = [
  // Asks the size (as shown, 1080p, 4K, square) and the background (the stage, or none).
  { what: 'screenshot', label: 'Screenshot (PNG)…', needs: 'view' },
  { what: 'turntable', label: 'Turntable…', needs: 'view' },
  { what: 'glb', label: 'Original GLB', needs: 'model' },
  { what: 'obj', label: 'OBJ', needs: 'model' },
  { what: 'stl', label: 'STL (binary)', needs: 'model' },
  // Asks the printed height first (a glTF metre would be a 1,000 mm print).
  { what: 'stl-z-up', label: 'STL for slicers (mm, Z up)…', needs: 'model' },
  { what: 'usdz', label: 'USDZ (AR Quick Look)', needs: 'model' },
] as const;
export type SaveWhat = (typeof SAVE_ITEMS)[number]['what'];

/**
 * The toolbar's Save menu. It closes once a choice is made (a download needs no open menu
 * behind it).
 */
export function SaveMenu({
  viewReady,
  modelReady,
  turntable,
  onSave,
}: {
  /** Screenshots need the view drawn. */
  viewReady: boolean;
  /** Files need the loaded model. */
  modelReady: boolean;
  /** Offers "Turntable…" (a video or GIF of one turn). */
  turntable: boolean;
  onSave: (what: SaveWhat) => void;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  return (
    <details className="model-viewer__menu" ref={menu}>
      <summary>Save</summary>
      <div role="group" aria-label="Save">
        {SAVE_ITEMS.filter((item) => turntable || item.what !== 'turntable').map((item) => (
          <button
            key={item.what}
            type="button"
            disabled={item.needs === 'view' ? !viewReady : !modelReady}
            onClick={() => {
              if (menu.current) menu.current.open = false;
              onSave(item.what);
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
    </details>
  );
}

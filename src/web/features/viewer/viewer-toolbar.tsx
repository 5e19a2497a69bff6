import type { Dispatch } from 'react';
import { LOOKS, LOOK_LABELS } from './looks.ts';
import { SaveMenu, type SaveWhat } from './save-menu.tsx';
import {
  BACKGROUND_LABELS,
  BACKGROUNDS,
  EXPOSURE,
  type Background,
  type SettingsAction,
  type ViewerSettings,
} from './settings.ts';

/** The "Show" toggles of the toolbar, with their keys (see SHORTCUTS in settings.ts). */
const SHOW_TOGGLES = [
  { key: 'wireframe', label: 'Wireframe', shortcut: 'W' },
  { key: 'grid', label: 'Grid', shortcut: 'G' },
  { key: 'shadow', label: 'Shadow', shortcut: 'S' },
  { key: 'autoRotate', label: 'Auto-rotate', shortcut: 'A' },
] as const;

type ToggleKey = 'wireframe' | 'grid' | 'shadow' | 'autoRotate' | 'playing' | 'facts' | 'help';

/** The viewer's toolbar: looks, what to show, background and exposure, animation, and actions. */
export function ViewerToolbar({
  settings,
  dispatch,
  clips,
  ready,
  hasModel,
  onResetView,
  onOpen,
  turntable,
  onSave,
}: {
  settings: ViewerSettings;
  dispatch: Dispatch<SettingsAction>;
  /** The model's animation clips, by name. */
  clips: readonly string[];
  /** The view is drawn. */
  ready: boolean;
  /** The model is loaded (its files can be saved). */
  hasModel: boolean;
  onResetView: () => void;
  /** Opens a file from this device; none: no "Open…" button. */
  onOpen?: (() => void) | undefined;
  /** The Save menu offers "Turntable…". */
  turntable: boolean;
  onSave: (what: SaveWhat) => void;
}) {
  const toggle = (key: ToggleKey) => dispatch({ type: 'toggle', key });
  return (
    <div className="model-viewer__bar" role="toolbar" aria-label="Viewer controls">
      <div className="model-viewer__group" role="group" aria-label="Look">
        {LOOKS.map((look, i) => (
          <button
            key={look}
            type="button"
            aria-pressed={settings.look === look}
            title={`${LOOK_LABELS[look]} (${i + 1})`}
            onClick={() => dispatch({ type: 'look', look })}
          >
            {LOOK_LABELS[look]}
          </button>
        ))}
      </div>
      <div className="model-viewer__group" role="group" aria-label="Show">
        {SHOW_TOGGLES.map((t) => (
          <ToggleButton
            key={t.key}
            on={settings[t.key]}
            onClick={() => toggle(t.key)}
            label={t.label}
            shortcut={t.shortcut}
          />
        ))}
      </div>
      <StageControls settings={settings} dispatch={dispatch} />
      {clips.length > 0 && (
        <AnimationControls settings={settings} dispatch={dispatch} clips={clips} />
      )}
      <div className="model-viewer__group model-viewer__group--end">
        <button
          type="button"
          title="Reset view (R, Home, double-click)"
          disabled={!ready}
          onClick={onResetView}
        >
          Reset view
        </button>
        <ToggleButton
          on={settings.facts}
          onClick={() => toggle('facts')}
          label="Facts"
          shortcut="I"
        />
        <SaveMenu viewReady={ready} modelReady={hasModel} turntable={turntable} onSave={onSave} />
        {onOpen && (
          <button type="button" title="Open a .glb file (O)" onClick={onOpen}>
            Open…
          </button>
        )}
        <button
          type="button"
          aria-pressed={settings.help}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => toggle('help')}
        >
          ?
        </button>
      </div>
    </div>
  );
}

function ToggleButton({
  on,
  onClick,
  label,
  shortcut,
}: {
  on: boolean;
  onClick: () => void;
  label: string;
  shortcut: string;
}) {
  return (
    <button type="button" aria-pressed={on} title={`${label} (${shortcut})`} onClick={onClick}>
      {label}
    </button>
  );
}

/** The stage: its background (a colour of one's own for "custom") and the exposure. */
function StageControls({
  settings,
  dispatch,
}: {
  settings: ViewerSettings;
  dispatch: Dispatch<SettingsAction>;
}) {
  return (
    <div className="model-viewer__group">
      <label className="model-viewer__field">
        <span>Background</span>
        <select
          value={settings.background}
          onChange={(e) =>
            dispatch({ type: 'background', background: e.target.value as Background })
          }
        >
          {BACKGROUNDS.map((b) => (
            <option key={b} value={b}>
              {BACKGROUND_LABELS[b]}
            </option>
          ))}
        </select>
      </label>
      {settings.background === 'custom' && (
        <input
          type="color"
          aria-label="Background colour"
          value={settings.customBackground}
          onChange={(e) =>
            dispatch({ type: 'background', background: 'custom', color: e.target.value })
          }
        />
      )}
      <label className="model-viewer__field">
        <span>Exposure</span>
        <input
          type="range"
          min={EXPOSURE.min}
          max={EXPOSURE.max}
          step={EXPOSURE.step}
          value={settings.exposure}
          onChange={(e) => dispatch({ type: 'exposure', value: Number(e.target.value) })}
        />
        <output>{settings.exposure.toFixed(2)}</output>
      </label>
    </div>
  );
}

/** Play or pause, and which of the model's clips. */
function AnimationControls({
  settings,
  dispatch,
  clips,
}: {
  settings: ViewerSettings;
  dispatch: Dispatch<SettingsAction>;
  clips: readonly string[];
}) {
  return (
    <div className="model-viewer__group" role="group" aria-label="Animation">
      <button
        type="button"
        aria-pressed={settings.playing}
        title="Play or pause (Space)"
        onClick={() => dispatch({ type: 'toggle', key: 'playing' })}
      >
        {settings.playing ? 'Pause' : 'Play'}
      </button>
      <label className="model-viewer__field">
        <span className="visually-hidden">Animation</span>
        <select
          aria-label="Animation"
          value={Math.min(settings.clip, clips.length - 1)}
          onChange={(e) =>
            dispatch({ type: 'clip', clip: Number(e.target.value), count: clips.length })
          }
        >
          {clips.map((clip, i) => (
            <option key={`${i}:${clip}`} value={i}>
              {clip}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

// What the viewer shows and how: one plain object, changed by the toolbar and by the keyboard
// shortcuts (the same actions, listed once here so the help overlay cannot drift from the keys).
import { LOOKS, type Look } from './looks.ts';

export const BACKGROUNDS = ['stage', 'light', 'dark', 'custom'] as const;
export type Background = (typeof BACKGROUNDS)[number];

export const BACKGROUND_LABELS: Record<Background, string> = {
  stage: 'Stage (transparent)',
  light: 'Light',
  dark: 'Dark',
  custom: 'Custom colour',
};

/** Scene colour for a background; `null` keeps the canvas transparent over the page's stage. */
export function backgroundColor(settings: ViewerSettings): string | null {
  switch (settings.background) {
    case 'stage':
      return null;
    case 'light':
      return '#f3f1ed';
    case 'dark':
      return '#1c1a18';
    case 'custom':
      return settings.customBackground;
  }
}

export interface ViewerSettings {
  look: Look;
  wireframe: boolean;
  grid: boolean;
  shadow: boolean;
  autoRotate: boolean;
  background: Background;
  customBackground: string;
  /** Tone-mapping exposure, 0.25–3. */
  exposure: number;
  /** The animation clip shown (index into the model's clips), and whether it plays. */
  clip: number;
  playing: boolean;
  facts: boolean;
  help: boolean;
}

export const DEFAULT_SETTINGS: ViewerSettings = {
  look: 'lit',
  wireframe: false,
  grid: false,
  shadow: true,
  autoRotate: false,
  background: 'stage',
  customBackground: '#3d5a80',
  exposure: 1,
  clip: 0,
  playing: true,
  facts: false,
  help: false,
};

export const EXPOSURE = { min: 0.25, max: 3, step: 0.05 } as const;

type Toggle = 'wireframe' | 'grid' | 'shadow' | 'autoRotate' | 'playing' | 'facts' | 'help';

export type SettingsAction =
  | { type: 'toggle'; key: Toggle }
  | { type: 'look'; look: Look }
  | { type: 'background'; background: Background; color?: string }
  | { type: 'cycle-background' }
  | { type: 'exposure'; value: number }
  | { type: 'clip'; clip: number; count?: number }
  | { type: 'close-help' };

export function settingsReducer(state: ViewerSettings, action: SettingsAction): ViewerSettings {
  switch (action.type) {
    case 'toggle':
      return { ...state, [action.key]: !state[action.key] };
    case 'look':
      return { ...state, look: action.look };
    case 'background':
      return {
        ...state,
        background: action.background,
        customBackground: action.color ?? state.customBackground,
      };
    case 'cycle-background': {
      const next = BACKGROUNDS[(BACKGROUNDS.indexOf(state.background) + 1) % BACKGROUNDS.length];
      return { ...state, background: next ?? 'stage' };
    }
    case 'exposure': {
      const value = Number.isFinite(action.value) ? action.value : 1;
      return { ...state, exposure: Math.min(EXPOSURE.max, Math.max(EXPOSURE.min, value)) };
    }
    case 'clip': {
      const count = action.count ?? Infinity;
      if (count === 0) return state;
      const clip = ((action.clip % count) + count) % count;
      return { ...state, clip: Number.isFinite(clip) ? clip : Math.max(0, action.clip) };
    }
    case 'close-help':
      return state.help ? { ...state, help: false } : state;
  }
}

/** A shortcut: the keys (as `KeyboardEvent.key`), what the help overlay says, and what it does. */
export interface Shortcut {
  keys: string[];
  label: string;
  /** What the key does: a settings change, or a command the viewer carries out. */
  run: SettingsAction | Command;
}

export type Command =
  | { type: 'reset' }
  | { type: 'orbit'; azimuth: number; polar: number }
  | { type: 'zoom'; factor: number }
  | { type: 'screenshot' }
  | { type: 'open-file' }
  | { type: 'next-clip'; step: 1 | -1 };

const STEP = Math.PI / 12;
const ZOOM = 0.85;

export const SHORTCUTS: Shortcut[] = [
  { keys: ['r', 'Home'], label: 'Reset the view (or double-click)', run: { type: 'reset' } },
  {
    keys: ['ArrowLeft', 'ArrowRight'],
    label: 'Turn left / right',
    run: { type: 'orbit', azimuth: STEP, polar: 0 },
  },
  {
    keys: ['ArrowUp', 'ArrowDown'],
    label: 'Turn up / down',
    run: { type: 'orbit', azimuth: 0, polar: -STEP },
  },
  { keys: ['+', '-'], label: 'Zoom in / out', run: { type: 'zoom', factor: ZOOM } },
  { keys: ['a'], label: 'Auto-rotate', run: { type: 'toggle', key: 'autoRotate' } },
  ...LOOKS.map((look, i) => ({
    keys: [String(i + 1)],
    label: `${look === 'lit' ? 'Lit' : look === 'clay' ? 'Clay' : look === 'normals' ? 'Normals' : 'Texture only'} look`,
    run: { type: 'look', look } as const,
  })),
  { keys: ['w'], label: 'Wireframe overlay', run: { type: 'toggle', key: 'wireframe' } },
  { keys: ['g'], label: 'Grid', run: { type: 'toggle', key: 'grid' } },
  { keys: ['s'], label: 'Ground shadow', run: { type: 'toggle', key: 'shadow' } },
  { keys: ['b'], label: 'Next background', run: { type: 'cycle-background' } },
  { keys: ['e', 'E'], label: 'Exposure up / down', run: { type: 'exposure', value: 0 } },
  { keys: [' '], label: 'Play / pause the animation', run: { type: 'toggle', key: 'playing' } },
  { keys: [']', '['], label: 'Next / previous animation', run: { type: 'next-clip', step: 1 } },
  { keys: ['i'], label: 'Facts panel', run: { type: 'toggle', key: 'facts' } },
  { keys: ['p'], label: 'Save a screenshot as shown (PNG)', run: { type: 'screenshot' } },
  { keys: ['o'], label: 'Open a .glb file', run: { type: 'open-file' } },
  { keys: ['?'], label: 'This help', run: { type: 'toggle', key: 'help' } },
];

/** How a key is written in the help overlay. */
export function keyLabel(key: string): string {
  const names: Record<string, string> = {
    ' ': 'Space',
    ArrowLeft: '←',
    ArrowRight: '→',
    ArrowUp: '↑',
    ArrowDown: '↓',
    Home: 'Home',
    E: 'Shift+E',
  };
  return names[key] ?? key.toUpperCase();
}

/**
 * What a key press does, or null when it is not a shortcut. Second keys of a pair do the
 * opposite of the first (→ turns the other way, − zooms out, [ goes back, Shift+E darkens).
 */
export function commandFor(key: string, settings: ViewerSettings): SettingsAction | Command | null {
  if (key === '=') key = '+';
  if (key === 'R') key = 'r';
  for (const shortcut of SHORTCUTS) {
    const at = shortcut.keys.indexOf(key);
    if (at < 0) continue;
    const run = shortcut.run;
    const second = at === 1 && shortcut.keys.length === 2 && shortcut.keys[0] !== 'r';
    switch (run.type) {
      case 'orbit':
        return second ? { type: 'orbit', azimuth: -run.azimuth, polar: -run.polar } : run;
      case 'zoom':
        return second ? { type: 'zoom', factor: 1 / run.factor } : run;
      case 'next-clip':
        return second ? { type: 'next-clip', step: -1 } : run;
      case 'exposure':
        return { type: 'exposure', value: settings.exposure + (second ? -0.1 : 0.1) };
      default:
        return run;
    }
  }
  return null;
}

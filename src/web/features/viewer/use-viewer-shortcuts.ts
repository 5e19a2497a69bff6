import type { KeyboardEvent } from 'react';
import { commandFor, type Command, type SettingsAction, type ViewerSettings } from './settings.ts';
import type { ViewerState } from './use-viewer-lifecycle.ts';

/**
 * The viewer's keyboard shortcuts (SHORTCUTS in settings.ts): a keydown handler for the figure
 * that turns keys into commands for `run`. Typing in a field is not a shortcut; commands that
 * need the model wait until it is drawn.
 */
export function useViewerShortcuts(
  settings: ViewerSettings,
  state: ViewerState,
  run: (action: SettingsAction | Command) => void,
  dispatch: (action: SettingsAction) => void,
) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    // Typing in a field (or choosing in a list) is not a shortcut.
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || event.ctrlKey || event.metaKey) return;
    if (event.altKey) return;
    if (event.key === 'Escape' && settings.help) {
      event.preventDefault();
      dispatch({ type: 'close-help' });
      return;
    }
    // A focused button keeps Space and Enter for itself.
    if (target.tagName === 'BUTTON' && (event.key === ' ' || event.key === 'Enter')) return;
    const key = event.key.length === 1 && event.key !== 'E' ? event.key.toLowerCase() : event.key;
    const command = commandFor(key, settings);
    if (!command) return;
    const needsModel = ![
      'toggle',
      'look',
      'background',
      'cycle-background',
      'exposure',
      'open-file',
    ].includes(command.type);
    if (needsModel && state !== 'ready') return;
    event.preventDefault();
    run(command);
  };
}

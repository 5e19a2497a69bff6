// The library feature's public entry: other features (the task result, the viewer) offer
// "Rename" with `Renamable` (decision 0085; the gallery card uses `RenameForm` itself). The gallery page itself is loaded by the app.
export { Renamable } from './rename-form.tsx';

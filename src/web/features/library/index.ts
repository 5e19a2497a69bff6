// The library feature's public entry: other features (the task result, the viewer) offer
// "Rename" with these (decision 0085). The gallery page itself is loaded by the app.
export { Renamable, RenameForm } from './rename-form.tsx';

// The collections feature's public entry (decision 0087): the gallery offers the collection's
// heading (rename, zip, share, delete) and "Add to collection…" on its selection; the gallery
// card and the task result offer "Collections" on a model. Every dialog is loaded when first
// opened. The public page of a shared collection (collection-page.tsx) is a page of its own,
// loaded by the app.
export {
  AddToCollectionButton,
  ShareSelectionButton,
  type Added,
} from './add-to-collection-button.tsx';
export { CollectionHead } from './collection-head.tsx';
export { CollectionsButton, CollectionsDialogHost } from './collections-button.tsx';
export { modelCount } from './collection-name.ts';

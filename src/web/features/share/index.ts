// The share feature's public entry: other features offer "Share" with this button (the dialog it
// opens is loaded when first pressed). The public page of a shared model (share-page.tsx) is a
// page of its own, loaded by the app.
export { ShareButton } from './share-button.tsx';
// A share dialog's public link (make, copy, open, stop), for the collections' share dialog too.
export { PublicLinkPanel } from './public-link-panel.tsx';
// A link's embed snippet with Copy embed code, for the collections' share dialog too.
export { EmbedCode } from './embed-code.tsx';
// What the public pages share: the top bar, the failure pages, the credit, a model's facts.
export { KilnCredit, PublicGone, PublicHead, PublicLoadFailed, factsLine } from './public-page.tsx';
// A hidden model that is still shared: said, with Stop sharing (decision 0095).
export { StillShared } from './still-shared.tsx';

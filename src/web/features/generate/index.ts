// The generate feature's public entry: the form the studio page puts beside its tasks.
export { GenerateForm } from './generate-form.tsx';
export { useVendorCreate } from './use-vendor-create.ts';

// Download names are shared with Kiln's server (the zip of models names its entries the same
// way): the pure functions live in src/formats.
export * from '../../formats/file-name.ts';

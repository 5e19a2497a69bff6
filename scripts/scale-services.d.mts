export function scaleMissing(): string | undefined;

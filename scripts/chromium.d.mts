export const SYSTEM_CHROMIUM: string;
export const SYSTEM_ARGS: string[];
export const NO_CHROMIUM_HELP: string;
export function findChromium(): Promise<{
  kind: 'system' | 'playwright';
  executablePath?: string;
  args: string[];
} | null>;

// Which Chromium the e2e suite and benches drive: Debian's /usr/bin/chromium when present
// (with flags that make WebGL work headless), else Playwright's own browser, else none.
import { existsSync } from 'node:fs';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
export const SYSTEM_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  // The page composited in software: SwiftShader is then only WebGL's (decision 0119).
  '--disable-gpu-compositing',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** @returns {Promise<{ kind: 'system' | 'playwright', executablePath?: string, args: string[] } | null>} */
export async function findChromium() {
  const forced = process.env.KILN_CHROMIUM;
  if (forced && existsSync(forced))
    return { kind: 'system', executablePath: forced, args: SYSTEM_ARGS };
  if (existsSync(SYSTEM_CHROMIUM))
    return { kind: 'system', executablePath: SYSTEM_CHROMIUM, args: SYSTEM_ARGS };
  try {
    const { chromium } = await import('@playwright/test');
    const path = chromium.executablePath();
    if (path && existsSync(path))
      return {
        kind: 'playwright',
        args: [
          '--use-angle=swiftshader',
          '--enable-unsafe-swiftshader',
          '--disable-gpu-compositing',
        ],
      };
  } catch {
    // no Playwright browser
  }
  return null;
}

export const NO_CHROMIUM_HELP = `No Chromium found for the browser tests. Install one of:
  - Debian/Ubuntu: sudo apt-get install chromium     (then /usr/bin/chromium is used)
  - anywhere else: npx playwright install chromium   (Playwright's own browser)`;

import { chromium } from '@playwright/test';
import { findChromium } from '/work/main/scripts/chromium.mjs';
const b = await findChromium();
const browser = await chromium.launch({ executablePath: b?.executablePath, args: b?.args ?? [] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const logs = [];
page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
await page.goto('http://127.0.0.1:8123/viewer');
const file = process.argv[2] ?? 'draco';
await page.locator('[data-testid=viewer-file-input]').setInputFiles(`/work/main/e2e/fixtures/viewer/${file}.glb`);
const v = page.locator('[data-testid=model-viewer]');
try { await page.waitForSelector('[data-testid=model-viewer][data-state=ready]', { timeout: 30000 }); } catch (e) { console.log('not ready', await v.getAttribute('data-state')); }
for (const act of (process.argv[3] ?? '').split(',').filter(Boolean)) {
  if (act.startsWith('key:')) { await v.focus(); await page.keyboard.press(act.slice(4)); }
  else if (act.startsWith('click:')) await page.getByRole('button', { name: act.slice(6), exact: true }).first().click();
  await page.waitForTimeout(600);
}
await page.waitForTimeout(1500);
await page.screenshot({ path: `/tmp/shots/${file}.png`, fullPage: true });
console.log(logs.join('\n'));
console.log(await page.locator('canvas').evaluate((c) => JSON.stringify(c.kilnMemory?.())).catch(() => 'no canvas'));
await browser.close();

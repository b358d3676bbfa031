/**
 * Drives the playground as a seller would, for the screenshot commands (tools/screenshots.ts for
 * the README's pictures, tools/listing/screenshots.ts for the Marketplace listing): the playground
 * started as a child process, as people run it (an add-on dialog blocks its thread until answered
 * in the page), Chromium on it, and the grid, menu and sidebar steps both take.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Browser, chromium, type FrameLocator, type Page } from 'playwright-core';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findChromium } = require('../chromium.cjs') as { findChromium(): Promise<{ path: string; source: string }> };

const ROOT = join(__dirname, '..', '..');

export const hasClass = (c: string) => `contains(concat(" ", normalize-space(@class), " "), " ${c} ")`;

/** The built playground (`npm run build` first) on the shipped sample, on 127.0.0.1; resolves when it and its service are up. */
export async function startPlaygroundProcess(): Promise<{ child: ChildProcess; url: string }> {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  const child = spawn(process.execPath, ['--import', `file://${tsx}`, join(ROOT, 'tools', 'playground', 'main.ts'), '--no-open'], {
    cwd: ROOT,
    env: { ...process.env, DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /playground on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (m && /Local Scan Service: \S+\./.test(output)) resolve(m[1]);
    };
    child.stdout!.on('data', look);
    child.once('close', (code) => reject(new Error(`the playground stopped (exit ${code}):\n${output}`)));
  });
  return { child, url };
}

/**
 * Runs `steps` on a page of the playground at the viewport's size, then closes the browser and
 * stops the playground (Ctrl-C, as a person stops it), whatever happened.
 */
export async function withPlayground<T>(viewport: { width: number; height: number }, steps: (s: Seller) => Promise<T>): Promise<T> {
  const { child, url } = await startPlaygroundProcess();
  let browser: Browser | null = null;
  try {
    const found = await findChromium();
    browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox', '--renderer-process-limit=1'] });
    const page = await browser.newPage({ viewport });
    return await steps(seller(page, url));
  } finally {
    await browser?.close();
    child.kill('SIGINT');
  }
}

export type Seller = ReturnType<typeof seller>;

/** A seller's hands on the playground page: grid cells, the Extensions menu, a selection, the sidebar. */
export function seller(page: Page, url: string) {
  const row = (r: number) =>
    page.locator(
      `xpath=//*[${hasClass('tabulator-row')}][*[${hasClass('tabulator-cell')}][@tabulator-field="_id"][normalize-space(.)="${r}"]]`,
    );
  const cell = (r: number, c: string) => row(r).locator(`xpath=./*[${hasClass('tabulator-cell')}][@tabulator-field="${c}"]`);
  const sidebar = (): FrameLocator => page.frameLocator('#sidebar-frame');
  const menu = async (caption: string) => {
    await page.click('#ext-menu-button');
    await page.getByRole('menuitem', { name: caption, exact: true }).click();
  };
  const select = async (from: [number, string], to: [number, string]) => {
    const a = await cell(...from).boundingBox();
    const b = await cell(...to).boundingBox();
    await page.mouse.move(a!.x + 10, a!.y + 5);
    await page.mouse.down();
    await page.mouse.move(b!.x + 10, b!.y + 5, { steps: 6 });
    await page.mouse.up();
  };
  /** The page open on the shipped sample price list. */
  const open = async () => {
    await page.goto(url);
    await cell(1, 'A').getByText('Item Code').waitFor({ timeout: 30_000 });
  };
  /** The sample's block selected and New scan's preview shown (a prep cost given: see the listing's journey). */
  const previewScan = async (prepCost = '0.50') => {
    await select([1, 'A'], [21, 'G']);
    await menu('Scan this sheet');
    await sidebar()
      .getByText(/Price List · A1:G21/)
      .waitFor({ timeout: 30_000 });
    await sidebar().locator('input[name=prepCost]').fill(prepCost);
    await sidebar().getByRole('button', { name: 'Preview' }).click();
    await sidebar().getByRole('button', { name: 'Send' }).waitFor();
  };
  /** Send, and wait for the result tab the import writes; returns its name. */
  const sendScan = async () => {
    await sidebar().getByRole('button', { name: 'Send' }).click();
    await sidebar()
      .getByText(/^Imported \d+ products? into "Price List \d{4}-\d\d-\d\d"/)
      .waitFor({ timeout: 90_000 });
    await cell(1, 'A').getByText('ASIN', { exact: true }).waitFor({ timeout: 20_000 });
    return page.locator('#tabs [aria-selected=true]').innerText();
  };
  /** The scan's Overview tab (made at import beside `resultTab`), its title, its bars and its pictures drawn. */
  const openOverview = async (resultTab: string) => {
    // Its name may be shortened to fit the 31 characters a saved .xlsx allows; its title names the tab.
    await page.locator('#tabs [role=tab]', { hasText: / – Overview$/ }).click();
    await cell(1, 'A').getByText(`Overview of ${resultTab}`).waitFor({ timeout: 20_000 });
    await page.locator('svg.sparkline').first().waitFor({ timeout: 20_000 });
  };
  const closeSidebar = async () => {
    await page.click('#sidebar-close');
    await page.locator('#sidebar').waitFor({ state: 'hidden' });
  };
  /**
   * Every picture the grid and the sidebar show has loaded, and the grid's font (a screenshot taken
   * before shows empty cells, alt text, or text in a fallback font).
   */
  const picturesLoaded = async () => {
    // Runs in the page and in the sidebar's frame (Node's types have no DOM).
    // No named function inside (tsx would wrap it in a helper the page does not have).
    const loaded = () => {
      const g = globalThis as any;
      if (g.document.fonts.status !== 'loaded') return false;
      // Every picture, but a lazy one out of view (it loads when scrolled to, as in a browser).
      return Array.from(g.document.querySelectorAll('img') as ArrayLike<any>).every((i) => {
        const r = i.getBoundingClientRect();
        return i.complete || (i.loading === 'lazy' && !(r.bottom > 0 && r.top < g.innerHeight));
      });
    };
    await page.waitForFunction(loaded, undefined, { timeout: 20_000 });
    const frame = page.frame({ url: /\/api\/sidebar/ });
    if (frame && (await page.locator('#sidebar').isVisible())) await frame.waitForFunction(loaded, undefined, { timeout: 20_000 });
  };
  return { page, url, row, cell, sidebar, menu, select, open, previewScan, sendScan, openOverview, closeSidebar, picturesLoaded };
}

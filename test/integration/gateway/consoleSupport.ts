/**
 * What every browser suite of the console shares: the hooks (its console built, a test gateway on a real
 * SQLite file, chromium open on it), signing in and out through the console's forms, the language and
 * theme pickers, screenshots, and the checks every page gets: no horizontal overflow, no page error and
 * nothing blocked by the CSP. The suites of each part of the console add their own set-up around these
 * (consoleAdminSupport.ts, consoleUserSupport.ts, consoleDashSupport.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { GatewayOptions } from '../../../src/gateway/server.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { consoleBuilt } from '../../support/consoleBuilt.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

export interface ConsoleSuite {
  readonly t: Started;
  readonly store: Store;
  readonly browser: ConsoleBrowser;
  readonly page: Page;
}

/** Mocha hooks: the gateway (`setUp` adds users, keys...), the browser; `more` is what `setUp` answers. */
export function useConsoleSuite<More extends object>(options: GatewayOptions, setUp: (t: Started, store: Store) => Promise<More>): () => ConsoleSuite & More {
  let state: (ConsoleSuite & More) | undefined;
  before(async () => {
    await consoleBuilt();
    const t = await startTestGateway(options);
    const store = t.admin();
    const more = await setUp(t, store);
    const browser = await launchConsoleBrowser(t.gw.url);
    mkdirSync(SCREENSHOTS, { recursive: true });
    state = { ...more, t, store, browser, page: browser.page };
  });
  after(async () => {
    await state?.browser.close();
    await state?.t.close();
  });
  return () => state!;
}

/** Signs in on `page` through the console's form (signing out first when someone is), then opens `hash`. */
export async function signInOn(page: Page, base: string, name: string, hash = '#/', password = PASSWORD): Promise<void> {
  await page.goto(`${base}/#/signin`);
  await page.locator('#signin-name, #signout').first().waitFor({ state: 'visible' });
  if (await page.locator('#signout').isVisible()) await signOutOn(page);
  await page.locator('#signin-name').fill(name);
  await page.locator('#signin-password').fill(password);
  await page.locator('#signin-form button[type=submit]').click();
  await page.locator('#signout').waitFor({ state: 'visible' });
  await page.goto(`${base}/${hash}`);
  await page.locator('#main > *').first().waitFor();
}

export async function signOutOn(page: Page): Promise<void> {
  await page.locator('#signout').click();
  await page.locator('#signin-name').waitFor({ state: 'visible' });
}

export async function setLang(page: Page, lang: 'en' | 'zh-CN'): Promise<void> {
  await page.locator('#pref-lang').selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

export async function setTheme(page: Page, theme: 'light' | 'dark' | 'system'): Promise<void> {
  await page.locator('#pref-theme').selectOption(theme);
}

/** A screenshot as test-results/console-<name>.png: the whole page, or the window (a dialog over the page). */
export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `console-${name}.png`), fullPage });
}

/** Nothing on the page is wider than the window: long names and messages wrap, or scroll inside their own frame. */
export async function assertNoOverflow(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px window`);
}

/** No page error and no console error (the strict CSP reports what it blocks there), other than refusals the test caused (`allowed`). */
export function assertNoProblems(browser: ConsoleBrowser, allowed: readonly RegExp[] = []): void {
  const left = browser.problems.filter((p) => !allowed.some((a) => a.test(p)));
  assert.deepEqual(left, [], 'no page error and nothing blocked by the CSP');
}

/** Chromium reports each refused fetch as a failed resource load: the refusals a test expects. */
export const REFUSED = (...statuses: number[]): RegExp => new RegExp(`status of (${statuses.join('|')})`);

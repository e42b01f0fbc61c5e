/**
 * What the admin pages' browser suites share: a test gateway (its console built) with an admin `root`
 * and a user `ada`, chromium open on it, signing in through the console's form, opening a page by its
 * address, and the checks every page gets: screenshots in English and Chinese, on a phone and in dark
 * mode (test-results/console-admin-<page>-<variant>.png), no horizontal overflow, no page error and
 * nothing blocked by the CSP.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Store } from '../../../src/gateway/store/types.ts';
import type { GatewayOptions } from '../../../src/gateway/server.ts';
import { consoleBuilt } from '../../support/consoleBuilt.ts';
import { poll } from '../../support/poll.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

export interface AdminConsole {
  readonly t: Started;
  readonly store: Store;
  readonly browser: ConsoleBrowser;
  readonly page: Page;
}

/** Mocha hooks: the gateway with `root` (admin) and `ada` ($1.00) unless `bare`, and a browser. */
export function useAdminConsole(options: GatewayOptions & { readonly bare?: boolean } = {}): () => AdminConsole {
  let state: AdminConsole | undefined;
  before(async () => {
    await consoleBuilt();
    const { bare, ...gateway } = options;
    const t = await startTestGateway(gateway);
    const store = t.admin();
    if (!bare) {
      await makeUser(store, 'root', 0, true);
      await makeUser(store, 'ada', 1_000_000);
    }
    const browser = await launchConsoleBrowser(t.gw.url);
    mkdirSync(SCREENSHOTS, { recursive: true });
    state = { t, store, browser, page: browser.page };
  });
  after(async () => {
    await state?.browser.close();
    await state?.t.close();
  });
  return () => state!;
}

/** Signs in on `page` through the console's form (signing out first when someone is), then opens `hash`. */
export async function signIn(page: Page, base: string, name: string, hash = '#/', password = PASSWORD): Promise<void> {
  await page.goto(`${base}/#/signin`);
  await page.locator('#signin-name, #signout').first().waitFor();
  if (await page.locator('#signout').isVisible()) {
    await page.locator('#signout').click();
  }
  await page.locator('#signin-name').waitFor({ state: 'visible' });
  await page.locator('#signin-name').fill(name);
  await page.locator('#signin-password').fill(password);
  await page.locator('#signin-form button[type=submit]').click();
  await page.locator('#signout').waitFor({ state: 'visible' });
  await open(page, base, hash);
}

/** Opens a page of the console by its address (#/admin/users). */
export async function open(page: Page, base: string, hash: string): Promise<void> {
  await page.goto(`${base}/${hash}`);
  await page.locator('#main > *').first().waitFor();
}

/** The visible words of the menu, in order. */
export async function menu(page: Page): Promise<string[]> {
  return page.locator('#side a').allInnerTexts();
}

export async function setLang(page: Page, lang: 'en' | 'zh-CN'): Promise<void> {
  await page.locator('#pref-lang').selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

export async function setTheme(page: Page, theme: 'light' | 'dark' | 'system'): Promise<void> {
  await page.locator('#pref-theme').selectOption(theme);
}

/** Nothing on the page is wider than the window: long names wrap, or scroll inside their own frame. */
export async function assertNoOverflow(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px window`);
}

const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * test-results/console-admin-<name>-en.png and -zh-CN.png at 1280 px, -phone.png at 390 px and -dark.png,
 * each checked for overflow; `ready` is what shows once the page has its data (waited for in each).
 * The page is left in English, light, at 1280 px.
 */
export async function screenshots(page: Page, name: string, ready: () => Locator, chinese: string): Promise<void> {
  const shoot = async (variant: string): Promise<void> => {
    await ready().first().waitFor();
    await assertNoOverflow(page, `${name} ${variant}`);
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, `console-admin-${name}-${variant}.png`), fullPage: true });
  };
  await page.setViewportSize(WIDE);
  await setLang(page, 'en');
  await shoot('en');
  await setLang(page, 'zh-CN');
  await page.locator('#main h1', { hasText: chinese }).waitFor();
  await shoot('zh-CN');
  await setLang(page, 'en');
  await page.setViewportSize(PHONE);
  await shoot('phone');
  await page.setViewportSize(WIDE);
  await setTheme(page, 'dark');
  await shoot('dark');
  await setTheme(page, 'light');
}

/** No page error, no console error (the CSP reports what it blocks there), other than `allowed` (a refusal the test asked for). */
export function assertNoProblems(browser: ConsoleBrowser, allowed: RegExp[] = []): void {
  const left = browser.problems.filter((p) => !allowed.some((a) => a.test(p)));
  assert.deepEqual(left, [], 'no page error and nothing blocked by the CSP');
}

/** Waits until the rows of table `table` (by data-testid) give `expected` through `read`, each row's `attribute`: no fixed sleeps. */
export async function rowsBecome(page: Page, table: string, attribute: string, expected: readonly string[]): Promise<void> {
  const rows = page.locator(`[data-testid="${table}"] tbody tr`);
  await poll(`${table} rows ${JSON.stringify(expected)}`, async () => {
    const now = await rows.evaluateAll((trs, name) => trs.map((tr) => tr.getAttribute(name)), attribute);
    return JSON.stringify(now) === JSON.stringify(expected);
  }, 30_000);
}

/** A row of a console table by its data attribute (data-user="bea"). */
export function rowOf(page: Page, table: string, attribute: string, value: string): Locator {
  return page.locator(`[data-testid="${table}"] tbody tr[${attribute}="${value.replace(/["\\]/g, '\\$&')}"]`);
}

/**
 * What the admin pages' browser suites share: a test gateway (its console built) with an admin `root`
 * and a user `ada`, chromium open on it, signing in through the console's form, opening a page by its
 * address, and the checks every page gets: screenshots in English and Chinese, on a phone and in dark
 * mode (test-results/console-admin-<page>-<variant>.png), no horizontal overflow, no page error and
 * nothing blocked by the CSP.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { GatewayOptions } from '../../../src/gateway/server.ts';
import { poll } from '../../support/poll.ts';
import { SCREENSHOTS } from './browser.ts';
import { makeUser } from './consoleAgent.ts';
import { assertNoOverflow, setLang, setTheme, useConsoleSuite, type ConsoleSuite } from './consoleSupport.ts';

export { assertNoOverflow, assertNoProblems, setLang, setTheme, signInOn as signIn } from './consoleSupport.ts';

export type AdminConsole = ConsoleSuite;

/** Mocha hooks: the gateway with `root` (admin) and `ada` ($1.00) unless `bare`, and a browser. */
export function useAdminConsole(options: GatewayOptions & { readonly bare?: boolean } = {}): () => AdminConsole {
  const { bare, ...gateway } = options;
  return useConsoleSuite(gateway, async (_t, store) => {
    if (!bare) {
      await makeUser(store, 'root', 0, true);
      await makeUser(store, 'ada', 1_000_000);
    }
    return {};
  });
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

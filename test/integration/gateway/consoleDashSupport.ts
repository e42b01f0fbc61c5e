/**
 * What the dashboard and logs browser suites share: a test gateway (its console built) with an admin
 * `root` and two users `ada` and `bob` on accounts of their own, each with an API key used through the
 * official openai SDK; chromium open on it; signing in through the console's form; screenshots in both
 * languages; and the checks every page gets (no horizontal overflow, no page error or CSP refusal).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { createKey } from '../../../src/gateway/admin.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { consoleBuilt } from '../../support/consoleBuilt.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

export interface DashSuite {
  readonly t: Started;
  readonly store: Store;
  readonly browser: ConsoleBrowser;
  readonly page: Page;
  /** The SDK with each user's key. */
  readonly sdk: { readonly ada: OpenAI; readonly bob: OpenAI };
}

/** Mocha hooks: the gateway, the users and their keys, the browser. */
export function useDashSuite(): () => DashSuite {
  let state: DashSuite | undefined;
  before(async () => {
    await consoleBuilt();
    const t = await startTestGateway();
    const store = t.admin();
    await makeUser(store, 'root', 0, true);
    await makeUser(store, 'ada', 5_000_000);
    await makeUser(store, 'bob', 5_000_000);
    const client = async (account: string): Promise<OpenAI> => {
      const { secret } = await createKey(store, { account, name: `${account}-key` });
      return new OpenAI({ apiKey: secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    };
    const sdk = { ada: await client('ada'), bob: await client('bob') };
    const browser = await launchConsoleBrowser(t.gw.url);
    mkdirSync(SCREENSHOTS, { recursive: true });
    state = { t, store, browser, page: browser.page, sdk };
  });
  after(async () => {
    await state?.browser.close();
    await state?.t.close();
  });
  return () => state!;
}

/** Signs in through the console's form (signing out first when someone is signed in), then opens `hash` in English. */
export async function signIn(s: DashSuite, name: string, hash = '#/'): Promise<void> {
  const { page } = s;
  await page.goto(`${s.t.gw.url}/#/signin`);
  if (await page.locator('#signout').isVisible().catch(() => false)) {
    await page.locator('#signout').click();
  }
  await page.locator('#signin-name').waitFor({ state: 'visible' });
  await page.locator('#signin-name').fill(name);
  await page.locator('#signin-password').fill(PASSWORD);
  await page.locator('#signin-form button[type=submit]').click();
  await page.locator('#signout').waitFor({ state: 'visible' });
  await page.goto(`${s.t.gw.url}/${hash}`);
  await setLang(page, 'en');
}

export async function setLang(page: Page, lang: 'en' | 'zh-CN'): Promise<void> {
  await page.locator('#pref-lang').selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

export async function setTheme(page: Page, theme: 'light' | 'dark' | 'system'): Promise<void> {
  await page.locator('#pref-theme').selectOption(theme);
}

/** A full-page screenshot as test-results/console-<name>.png. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `console-${name}.png`), fullPage: true });
}

/** Nothing on the page is wider than the window: long names and messages wrap or scroll in their own frame. */
export async function assertNoOverflow(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px window`);
}

/** No page error, no console error (the strict CSP reports what it blocks there), other than those `allowed`. */
export function assertNoProblems(s: DashSuite, allowed: RegExp[] = []): void {
  const left = s.browser.problems.filter((p) => !allowed.some((a) => a.test(p)));
  assert.deepEqual(left, [], 'no page error and nothing blocked by the CSP');
}

/**
 * What the browser suites of the user's own pages share (keys, models, top-up, account, the key
 * console, /device): a test gateway on a real SQLite file with its console built, an admin `root` and a
 * user `ada` ($1.00), chromium open on it; signing in and out through the console's forms; the official
 * openai SDK for a key; screenshots in both languages and on a phone; and the checks every page gets (no
 * horizontal overflow, no page error, nothing blocked by the CSP).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import type { GatewayOptions } from '../../../src/gateway/server.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { consoleBuilt } from '../../support/consoleBuilt.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

export interface UserSuite {
  readonly t: Started;
  readonly store: Store;
  readonly browser: ConsoleBrowser;
  readonly page: Page;
}

/** Mocha hooks: the gateway (with `users`: root, admin, and ada with $1.00), the browser. */
export function useUserSuite(options: GatewayOptions & { readonly users?: boolean } = {}): () => UserSuite {
  let state: UserSuite | undefined;
  before(async () => {
    await consoleBuilt();
    const { users = true, ...gatewayOptions } = options;
    const t = await startTestGateway(gatewayOptions);
    const store = t.admin();
    if (users) {
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

/** The official openai SDK with `key` on the gateway's /v1, no retries. */
export function sdkWith(s: UserSuite, key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${s.t.gw.url}/v1`, maxRetries: 0 });
}

/** One chat turn with the SDK: the HTTP status (200, or the refusal's) and the error code of a refusal. */
export async function chatStatus(sdk: OpenAI, model = 'echo'): Promise<{ status: number; code: string | null }> {
  try {
    await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'from the browser suite' }] });
    return { status: 200, code: null };
  } catch (error) {
    if (error instanceof OpenAI.APIError && error.status !== undefined) return { status: error.status, code: (error.code as string | null | undefined) ?? null };
    throw error;
  }
}

/** Signs in through the console's form (signing out first when someone is), then opens `hash`. */
export async function signIn(s: UserSuite, name: string, hash = '#/', password = PASSWORD): Promise<void> {
  const { page } = s;
  await page.goto(`${s.t.gw.url}/#/signin`);
  await page.locator('#signin-name, #signout').first().waitFor({ state: 'visible' });
  if (await page.locator('#signout').isVisible()) await signOut(s);
  await page.locator('#signin-name').fill(name);
  await page.locator('#signin-password').fill(password);
  await page.locator('#signin-form button[type=submit]').click();
  await page.locator('#signout').waitFor({ state: 'visible' });
  await page.goto(`${s.t.gw.url}/${hash}`);
}

export async function signOut(s: UserSuite): Promise<void> {
  await s.page.locator('#signout').click();
  await s.page.locator('#signin-name').waitFor({ state: 'visible' });
}

export async function setLang(page: Page, lang: 'en' | 'zh-CN'): Promise<void> {
  await page.locator('#pref-lang').selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

/** A screenshot as test-results/console-<name>.png: the whole page, or the window (a dialog over the page). */
export async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `console-${name}.png`), fullPage });
}

/** Nothing on the page is wider than the window: long names wrap or scroll inside their own frame. */
export async function assertNoOverflow(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px window`);
}

/** `run` with the window of a phone (390 px), then back to a desktop's. */
export async function onPhone(page: Page, run: () => Promise<void>): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await run();
  } finally {
    await page.setViewportSize({ width: 1320, height: 1000 });
  }
}

/** Screenshots of the page as it is, in English and in Chinese, at 1320 px and on a phone; no overflow in any. Ends in English. */
export async function shootBothLanguages(page: Page, name: string, ready: () => Promise<void> = async () => undefined): Promise<void> {
  for (const lang of ['en', 'zh-CN'] as const) {
    await setLang(page, lang);
    await ready();
    await assertNoOverflow(page, `${name} in ${lang}`);
    await shoot(page, `${name}-${lang}`);
  }
  await onPhone(page, async () => {
    await ready();
    await assertNoOverflow(page, `${name} in zh-CN on a phone`);
    await shoot(page, `${name}-phone-zh-CN`);
    await setLang(page, 'en');
    await ready();
    await assertNoOverflow(page, `${name} in en on a phone`);
    await shoot(page, `${name}-phone-en`);
  });
}

/** No page error and no console error (the strict CSP reports what it blocks there), other than refusals the test caused (`allowed`). */
export function assertNoProblems(s: UserSuite, allowed: readonly RegExp[] = []): void {
  const left = s.browser.problems.filter((p) => !allowed.some((a) => a.test(p)));
  assert.deepEqual(left, [], 'no page error and nothing blocked by the CSP');
}

/** Chromium reports each refused fetch as a failed resource load: the refusals a test expects. */
export const REFUSED = (...statuses: number[]): RegExp => new RegExp(`status of (${statuses.join('|')})`);

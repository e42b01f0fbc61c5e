/**
 * What the browser suites of the user's own pages share (keys, models, top-up, account, the key
 * console, /device): a test gateway on a real SQLite file with its console built, an admin `root` and a
 * user `ada` ($1.00), chromium open on it; signing in and out through the console's forms; the official
 * openai SDK for a key; screenshots in both languages and on a phone; and the checks every page gets (no
 * horizontal overflow, no page error, nothing blocked by the CSP).
 */
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import type { GatewayOptions } from '../../../src/gateway/server.ts';
import { makeUser, PASSWORD } from './consoleAgent.ts';
import { assertNoOverflow, assertNoProblems as noProblems, setLang, shoot, signInOn, signOutOn, useConsoleSuite, type ConsoleSuite } from './consoleSupport.ts';

export { assertNoOverflow, REFUSED, setLang, shoot } from './consoleSupport.ts';

export type UserSuite = ConsoleSuite;

/** Mocha hooks: the gateway (with `users`: root, admin, and ada with $1.00), the browser. */
export function useUserSuite(options: GatewayOptions & { readonly users?: boolean } = {}): () => UserSuite {
  const { users = true, ...gatewayOptions } = options;
  return useConsoleSuite(gatewayOptions, async (_t, store) => {
    if (users) {
      await makeUser(store, 'root', 0, true);
      await makeUser(store, 'ada', 1_000_000);
    }
    return {};
  });
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
export function signIn(s: UserSuite, name: string, hash = '#/', password = PASSWORD): Promise<void> {
  return signInOn(s.page, s.t.gw.url, name, hash, password);
}

export function signOut(s: UserSuite): Promise<void> {
  return signOutOn(s.page);
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
  noProblems(s.browser, allowed);
}

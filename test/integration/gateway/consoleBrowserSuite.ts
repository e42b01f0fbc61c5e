/**
 * The hooks of a console suite in a browser (Debian's chromium): a test gateway with an admin `root` and a
 * user `ada` ($1.00, both with PASSWORD), chromium open on it, screenshots' folder made; and what every such
 * suite does on the page: sign in by name, sign out, find a tab of the signed-in views.
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import type { Store } from '../../../src/gateway/store/types.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

export interface ConsoleInBrowser {
  /** The gateway, its store, the browser and its page: set once the suite's `before` ran. */
  now(): { t: Started; store: Store; browser: ConsoleBrowser; page: Page };
  signIn(name: string): Promise<void>;
  signOut(): Promise<void>;
  tab(name: string): Locator;
}

export function useConsoleInBrowser(): ConsoleInBrowser {
  let state: ReturnType<ConsoleInBrowser['now']> | undefined;
  before(async () => {
    const t = await startTestGateway();
    const store = t.admin();
    await makeUser(store, 'root', 0, true);
    await makeUser(store, 'ada', 1_000_000);
    const browser = await launchConsoleBrowser(t.gw.url);
    mkdirSync(SCREENSHOTS, { recursive: true });
    state = { t, store, browser, page: browser.page };
  });
  after(async () => {
    await state?.browser.close();
    await state?.t.close();
  });
  const page = (): Page => state!.page;
  return {
    now: () => state!,
    async signIn(name) {
      await page().locator('#user-name').waitFor({ state: 'visible' });
      await page().locator('#user-name').fill(name);
      await page().locator('#user-password').fill(PASSWORD);
      await page().locator('#user-signin-button').click();
      await page().locator('#keys-app').waitFor({ state: 'visible' });
    },
    async signOut() {
      await page().locator('#signout').click();
      await page().locator('#user-name').waitFor({ state: 'visible' });
    },
    tab: (name) => page().locator('#user-tabs').getByRole('button', { name, exact: true }),
  };
}

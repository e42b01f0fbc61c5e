/**
 * What the dashboard and logs browser suites share: a test gateway (its console built) with an admin
 * `root` and two users `ada` and `bob` on accounts of their own, each with an API key used through the
 * official openai SDK; chromium open on it; signing in through the console's form; screenshots in both
 * languages; and the checks every page gets (no horizontal overflow, no page error or CSP refusal).
 */
import OpenAI from 'openai';
import { createKey } from '../../../src/gateway/admin.ts';
import { makeUser } from './consoleAgent.ts';
import { assertNoProblems as noProblems, setLang, signInOn, useConsoleSuite, type ConsoleSuite } from './consoleSupport.ts';

export { assertNoOverflow, setLang, setTheme, shoot } from './consoleSupport.ts';

export interface DashSuite extends ConsoleSuite {
  /** The SDK with each user's key. */
  readonly sdk: { readonly ada: OpenAI; readonly bob: OpenAI };
}

/** Mocha hooks: the gateway, the users and their keys, the browser. */
export function useDashSuite(): () => DashSuite {
  return useConsoleSuite({}, async (t, store) => {
    await makeUser(store, 'root', 0, true);
    await makeUser(store, 'ada', 5_000_000);
    await makeUser(store, 'bob', 5_000_000);
    const client = async (account: string): Promise<OpenAI> => {
      const { secret } = await createKey(store, { account, name: `${account}-key` });
      return new OpenAI({ apiKey: secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    };
    return { sdk: { ada: await client('ada'), bob: await client('bob') } };
  });
}

/** Signs in through the console's form (signing out first when someone is signed in), then opens `hash` in English. */
export async function signIn(s: DashSuite, name: string, hash = '#/'): Promise<void> {
  await signInOn(s.page, s.t.gw.url, name, hash);
  await setLang(s.page, 'en');
}

/** No page error, no console error (the strict CSP reports what it blocks there), other than those `allowed`. */
export function assertNoProblems(s: DashSuite, allowed: RegExp[] = []): void {
  noProblems(s.browser, allowed);
}

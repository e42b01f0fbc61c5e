/**
 * A browser's side of the console API for tests: keeps the session cookie it is given (as a browser
 * would) and sends the page's Origin on every POST, so a test says only what differs from the page.
 */
import assert from 'node:assert/strict';
import { Agent, fetch as undiciFetch } from 'undici';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { answerOf, type Answer } from '../../support/answer.ts';
import { createUser } from '../../../src/gateway/accounts/users.ts';
import type { Store } from '../../../src/gateway/store/types.ts';

export const PASSWORD = 'correct horse battery';

export interface ConsoleAgent {
  /** The session cookie's value, when one is held. */
  cookie: string | undefined;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  signIn(name: string, password?: string): Promise<Answer>;
}

export interface AgentOptions {
  /** Connect from this loopback address (127.0.0.2, ...): another client address as the gateway sees it. */
  readonly localAddress?: string;
}

export function consoleAgent(gw: RunningGateway, options: AgentOptions = {}): ConsoleAgent {
  const dispatcher = options.localAddress ? new Agent({ localAddress: options.localAddress }) : null;
  const fetchFrom = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) =>
    (dispatcher ? undiciFetch(url, { ...init, dispatcher }) : fetch(url, init));
  const agent: ConsoleAgent = {
    cookie: undefined,
    async get(path, headers = {}) {
      return send('GET', path, undefined, headers);
    },
    async post(path, body, headers = {}) {
      return send('POST', path, body, { origin: gw.url, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers });
    },
    async signIn(name, password = PASSWORD) {
      return agent.post('/api/console/login', { name, password });
    },
  };
  async function send(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
    const all: Record<string, string> = { ...headers };
    if (agent.cookie !== undefined && all['cookie'] === undefined) all['cookie'] = `mg_session=${agent.cookie}`;
    // A header given as '' is a header the test wants absent.
    for (const [name, value] of Object.entries(all)) if (value === '') delete all[name];
    const res = await fetchFrom(gw.url + path, { method, headers: all, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });
    const setCookie = res.headers.get('set-cookie');
    const match = setCookie ? /^mg_session=([^;]*)/.exec(setCookie) : null;
    if (match) agent.cookie = match[1] === '' ? undefined : match[1];
    return answerOf(res.status, res.headers as Headers, await res.text());
  }
  return agent;
}

/** A user with PASSWORD on an account of their own name, topped up with `balance` micro-USD. */
export async function makeUser(store: Store, name: string, balance = 0, admin = false): Promise<void> {
  await createUser(store, { name, password: PASSWORD, admin });
  if (balance > 0) await store.topUp(name, balance);
}

/** An admin user `name` (account of the same name, $0) made in `store`, signed in to `gw`'s console. */
export async function signedInAdmin(gw: RunningGateway, store: Store, name = 'root'): Promise<ConsoleAgent> {
  await makeUser(store, name, 0, true);
  const agent = consoleAgent(gw);
  assert.equal((await agent.signIn(name)).status, 200);
  return agent;
}

/** Users ada and bob ($5 each), each signed in through an agent of their own: two accounts that must not see each other. */
export async function adaAndBob(gw: RunningGateway, store: Store): Promise<{ ada: ConsoleAgent; bob: ConsoleAgent }> {
  await makeUser(store, 'ada', 5_000_000);
  await makeUser(store, 'bob', 5_000_000);
  const ada = consoleAgent(gw);
  const bob = consoleAgent(gw);
  assert.equal((await ada.signIn('ada')).status, 200);
  assert.equal((await bob.signIn('bob')).status, 200);
  return { ada, bob };
}

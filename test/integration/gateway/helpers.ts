/** Shared helpers for the gateway's integration tests: a real gateway on 127.0.0.1:0 over a real SQLite file in a temp folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../../../src/gateway/server.ts';
import type { GatewayOptions, RunningGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { answerOf, requestOf, type Answer, type CallOptions } from '../../support/answer.ts';
import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { poll, PollTimeout } from '../../support/poll.ts';
import { makeUser, signedInAdmin, type ConsoleAgent } from './consoleAgent.ts';

import type { ModelRecord, Store, StoredLog } from '../../../src/gateway/store/types.ts';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'gateway-test-'));
}

export interface Started {
  readonly gw: RunningGateway;
  readonly key: string;
  readonly dir: string;
  /** A second connection to the same data folder, as the CLI would open. */
  admin(): Store;
  close(): Promise<void>;
}

export async function startTestGateway(options: GatewayOptions = {}): Promise<Started> {
  const dir = tempDir();
  const gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, echoDelayMs: 0, ...options });
  const stores: Store[] = [];
  return {
    gw,
    key: gw.bootstrapKey!,
    dir,
    admin() {
      const store = openStore({ dataDir: dir });
      stores.push(store);
      return store;
    },
    async close() {
      await gw.stop();
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function call(
  gw: RunningGateway,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const { headers, body } = requestOf(options);
  const res = await fetch(gw.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  return answerOf(res.status, res.headers, await res.text());
}

export const chatBody = (model = 'echo', content = 'hello there', extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content }],
  ...extra,
});


/** Polls the request log (written in batches) until a row matches, for up to two seconds; undefined if none does. */
export async function waitForLog(store: Store, matches: (log: StoredLog) => boolean): Promise<StoredLog | undefined> {
  return poll('a matching log row', async () => (await store.listLogs(50)).find(matches), 2000, 20).catch((error: unknown) => {
    if (error instanceof PollTimeout) return undefined;
    throw error;
  });
}

/** The log row of one request, by its request id (the X-Request-Id of its answer); fails when none is written. */
export async function logOfRequest(store: Store, requestId: string | null): Promise<StoredLog> {
  const log = await waitForLog(store, (l) => l.requestId === requestId);
  if (!log) throw new Error(`no log row for request ${requestId}`);
  return log;
}

/** A chat model's catalogue entry at these prices (micro-USD per million tokens); `extra` for context, tools or cache prices. */
export function chatModel(name: string, inputPrice: number, outputPrice: number, extra: Partial<ModelRecord> = {}): ModelRecord {
  return { name, kind: 'chat', inputPrice, outputPrice, imagePrice: null, contextLength: null, toolCalling: null, ...extra };
}

export interface UpstreamSuite {
  readonly t: Started;
  readonly upstream: FakeUpstream;
  /** The official openai SDK on the gateway's /v1, with the bootstrap key and no retries. */
  readonly openai: OpenAI;
  /** The official Anthropic SDK on the gateway (anthropicOn), with the bootstrap key. */
  readonly claude: Anthropic;
}

/**
 * The official Anthropic SDK on a test gateway (its base URL without /v1, as Claude Code is configured), the bootstrap
 * key unless `options` say otherwise, no retries. A timeout of its own: without one the SDK refuses, before sending
 * it, a whole (not streamed) answer it expects to take long (Claude Code's max_tokens of 32,000).
 */
export function anthropicOn(t: Started, options: ClientOptions = {}): Anthropic {
  return new Anthropic({ apiKey: t.key, baseURL: t.gw.url, maxRetries: 0, timeout: 60_000, ...options });
}

/**
 * Mocha hooks for a suite on a test gateway with one fake upstream: `setup` adds the suite's channels
 * and models; the upstream's behaviour is reset before each test; both stop after the suite.
 */
export function useGatewayWithUpstream(setup: (admin: Store, upstream: FakeUpstream) => Promise<void>, options: GatewayOptions = {}): UpstreamSuite {
  const state = {} as { t: Started; upstream: FakeUpstream; openai: OpenAI; claude: Anthropic };
  before(async () => {
    state.t = await startTestGateway(options);
    state.upstream = await startFakeUpstream({});
    await setup(state.t.admin(), state.upstream);
    state.openai = new OpenAI({ apiKey: state.t.key, baseURL: `${state.t.gw.url}/v1`, maxRetries: 0 });
    state.claude = anthropicOn(state.t);
  });
  beforeEach(() => {
    if (state.upstream) state.upstream.behaviour = {};
  });
  after(async () => {
    await state.t?.close();
    await state.upstream?.close();
  });
  return state;
}

export interface AdminSuite {
  readonly t: Started;
  /** Two fake upstreams, for a channel to be moved from one to the other. */
  readonly a: FakeUpstream;
  readonly b: FakeUpstream;
  /** The official openai SDK on the gateway's /v1, with the bootstrap key and no retries. */
  readonly openai: OpenAI;
}

/** Mocha hooks: a test gateway, its store, and the admin "root" signed in to its console (`root`). */
export function useSignedInAdmin(): { readonly t: Started; readonly store: Store; readonly root: ConsoleAgent } {
  const state = {} as { t: Started; store: Store; root: ConsoleAgent };
  before(async () => {
    state.t = await startTestGateway();
    state.store = state.t.admin();
    state.root = await signedInAdmin(state.t.gw, state.store);
  });
  after(async () => state.t?.close());
  return state;
}

/** Mocha hooks for the admins' channel suites: a test gateway with the admin "root" (consoleAgent.ts's PASSWORD, not signed in) and two fake upstreams. */
export function useAdminGateway(): AdminSuite {
  const state = {} as { t: Started; a: FakeUpstream; b: FakeUpstream; openai: OpenAI };
  before(async () => {
    state.t = await startTestGateway();
    await makeUser(state.t.admin(), 'root', 0, true);
    [state.a, state.b] = await Promise.all([startFakeUpstream({}), startFakeUpstream({})]);
    state.openai = new OpenAI({ apiKey: state.t.key, baseURL: `${state.t.gw.url}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await state.t?.close();
    await state.a?.close();
    await state.b?.close();
  });
  return state;
}

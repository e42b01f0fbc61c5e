/** Shared helpers for the gateway's integration tests: a real gateway on 127.0.0.1:0 over a real SQLite file in a temp folder. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_ERROR_TYPE } from '../../../src/contract/index.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import type { GatewayOptions, RunningGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { poll, PollTimeout } from '../../support/poll.ts';
import type { Store, StoredLog } from '../../../src/gateway/store/types.ts';

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

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

export async function call(
  gw: RunningGateway,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(gw.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const chatBody = (model = 'echo', content = 'hello there', extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content }],
  ...extra,
});

/** The contract error shape: status, stable code, our type, and the message ending with the X-Request-Id. */
export function assertError(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, `status (body: ${answer.text})`);
  assert.ok(answer.json && typeof answer.json.error === 'object', `JSON error body expected, got: ${answer.text}`);
  assert.equal(answer.json.error.code, code);
  assert.equal(answer.json.error.type, GATEWAY_ERROR_TYPE);
  assert.match(answer.json.error.type, /_error$/);
  const id = answer.headers.get('x-request-id');
  assert.ok(id, 'X-Request-Id header');
  assert.ok(String(answer.json.error.message).endsWith(`(request id: ${id})`), `message ends with the request id: ${answer.json.error.message}`);
}

/** Polls the request log (written in batches) until a row matches, for up to two seconds; undefined if none does. */
export async function waitForLog(store: Store, matches: (log: StoredLog) => boolean): Promise<StoredLog | undefined> {
  return poll('a matching log row', async () => (await store.listLogs(50)).find(matches), 2000, 20).catch((error: unknown) => {
    if (error instanceof PollTimeout) return undefined;
    throw error;
  });
}

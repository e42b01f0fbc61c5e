// A runtime without node:sqlite (some editor hosts): the in-process gateway still starts, on memory, and says so;
// without the fallback it refuses with a clear error. Node 24 with --no-experimental-sqlite stands for that runtime.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const server = resolve(import.meta.dirname, '../../../src/gateway/server.ts');

/** Starts the gateway in a child without node:sqlite, sends one chat, and prints what happened as JSON. */
const script = (dataDir: string, fallbackToMemory: boolean) => `
  const { startGateway } = await import(${JSON.stringify(server)});
  try {
    const gw = await startGateway({ dataDir: ${JSON.stringify(dataDir)}, port: 0, bootstrap: true, issueKey: 'vscode', fallbackToMemory: ${fallbackToMemory} });
    const res = await fetch(gw.url + '/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + gw.issuedKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = await res.json();
    await gw.stop();
    console.log(JSON.stringify({ storeKind: gw.storeKind, status: res.status, content: body.choices[0].message.content }));
  } catch (error) {
    console.log(JSON.stringify({ error: String(error.message) }));
  }
`;

async function withoutSqlite(dataDir: string, fallbackToMemory: boolean): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--no-experimental-sqlite', '--input-type=module', '-e', script(dataDir, fallbackToMemory)], {
    env: { ...process.env, MODEL_GATEWAY_ECHO_DELAY_MS: '0' },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('gateway on a runtime without node:sqlite', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gw-nosqlite-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('falls back to the in-memory store when asked, reports it, and serves chat', async () => {
    const out = await withoutSqlite(join(dir, 'data'), true);
    assert.deepEqual(out, { storeKind: 'memory', status: 200, content: 'You said: hi' });
    assert.ok(!existsSync(join(dir, 'data', 'gateway.db')), 'no database file is created');
  });

  it('refuses with a clear error when no fallback is allowed', async () => {
    const out = await withoutSqlite(join(dir, 'data'), false);
    assert.match(String(out['error']), /node:sqlite/);
  });
});

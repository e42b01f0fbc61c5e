// The web console over real HTTP: the page and its CSP, its files and their size, /api/console/me and /api/console/logs
// (this key's facts and logs only, never the secret, a request just made is listed, the balance agrees).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CONSOLE_DIR } from '../../../esbuild.js';
import { consoleBuilt } from '../../support/consoleBuilt.ts';
import { createKey, keyNamed } from '../../../src/gateway/admin.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import { hashKey } from '../../../src/gateway/keys.ts';
import { costOf } from '../../../src/gateway/accounts/money.ts';
import { call, chatBody, startTestGateway } from './helpers.ts';
import { assertError } from '../../support/answer.ts';
import type { Started } from './helpers.ts';

/** A GET whose body is left as sent (fetch would gunzip it). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

async function chatOnce(t: Started, key: string, content = 'hello console'): Promise<string> {
  const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key, body: chatBody('echo', content) });
  assert.equal(answer.status, 200, answer.text);
  return answer.headers.get('x-request-id')!;
}

describe('gateway console', () => {
  let t: Started;
  beforeEach(async () => (t = await startTestGateway()));
  afterEach(async () => t.close());

  it('serves the console page at /, /console and /device: no inline script or style, a CSP that allows only its own files', async () => {
    const { js, css } = await consoleBuilt();
    for (const path of ['/', '/console', '/console/', '/device']) {
      const answer = await call(t.gw, 'GET', path);
      assert.equal(answer.status, 200, path);
      assert.match(answer.headers.get('content-type')!, /^text\/html; charset=utf-8/);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('x-frame-options'), 'DENY');
      const csp = answer.headers.get('content-security-policy')!;
      for (const rule of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) assert.ok(csp.includes(rule), rule);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
      assert.doesNotMatch(answer.text, /<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script');
      assert.doesNotMatch(answer.text, /<style|\sstyle="/, 'no inline style');
      const assets = [...answer.text.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((a) => !a.startsWith('data:'));
      assert.deepEqual(assets.sort(), [`/assets/${css}`, `/assets/${js}`].sort(), 'only its own two files');
    }
  });

  it('serves its files by content hash, kept a year, gzipped when asked; any other name is the JSON 404', async () => {
    const { js, css } = await consoleBuilt();
    for (const [name, type] of [[js, 'text/javascript'], [css, 'text/css']] as const) {
      const plain = await fetch(`${t.gw.url}/assets/${name}`, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(plain.status, 200);
      assert.match(plain.headers.get('content-type')!, new RegExp(`^${type}`));
      assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const bytes = Buffer.from(await plain.arrayBuffer());
      assert.deepEqual(bytes, readFileSync(join(CONSOLE_DIR, name)));
      const zipped = await rawGet(t.gw.url, `/assets/${name}`, { 'accept-encoding': 'gzip' });
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.deepEqual(gunzipSync(zipped.body), bytes);
    }
    assertError(await call(t.gw, 'GET', '/assets/app-NOPE.js'), 404, 'not_found');
    assertError(await call(t.gw, 'GET', '/assets/../manifest.json'), 404, 'not_found');
  });

  it("keeps the console's script and style small: under 150 KB gzipped together, without zod's weight", async () => {
    const { js, css } = await consoleBuilt();
    const script = readFileSync(join(CONSOLE_DIR, js));
    const gzipped = gzipSync(script, { level: 9 }).byteLength + gzipSync(readFileSync(join(CONSOLE_DIR, css)), { level: 9 }).byteLength;
    assert.ok(gzipped < 150 * 1024, `${gzipped} bytes gzipped`);
    // The console takes only types from the route table: zod and the schemas stay on the server.
    assert.doesNotMatch(script.toString('utf8'), /ZodError|\$ZodType/);
  });

  it('keeps the JSON 404 for every other path', async () => {
    for (const path of ['/consoles', '/console/x', '/api/console', '/api/console/nope', '/index.html']) {
      assertError(await call(t.gw, 'GET', path, { key: t.key }), 404, 'not_found');
    }
    assertError(await call(t.gw, 'POST', '/api/console/me', { key: t.key, body: {} }), 405, 'method_not_allowed');
  });

  it('/api/console/me: the key (masked), the balance in USD and micro-USD, the models with exact names and prices; never the secret', async () => {
    const answer = await call(t.gw, 'GET', '/api/console/me', { key: t.key });
    assert.equal(answer.status, 200, answer.text);
    const me = answer.json;
    assert.equal(me.key.name, 'default');
    assert.equal(me.key.status, 'enabled');
    assert.equal(me.key.models, null);
    assert.equal(me.key.expires_at, null);
    assert.ok(t.key.startsWith(me.key.prefix.replace('…', '')), 'prefix is the start of the key');
    assert.ok(me.key.prefix.length < 12, 'only a short prefix');
    assert.equal(me.account.name, 'local');
    assert.deepEqual(me.balance.remaining, { micro_usd: 10_000_000, usd: '10.00' });
    assert.deepEqual(me.balance.used, { micro_usd: 0, usd: '0.00' });
    assert.deepEqual(me.models, [
      { name: 'echo', free: false, kind: 'chat', input_per_million: { micro_usd: 2_000_000, usd: '2.00' }, output_per_million: { micro_usd: 8_000_000, usd: '8.00' }, context_length: 32_768, max_output_tokens: null, tool_calling: true, image_input: true },
      { name: 'echo-completion', free: false, kind: 'completion', input_per_million: { micro_usd: 2_000_000, usd: '2.00' }, output_per_million: { micro_usd: 8_000_000, usd: '8.00' }, context_length: 32_768, max_output_tokens: null, tool_calling: null, image_input: null },
      { name: 'echo-embedding', free: false, kind: 'embedding', input_per_million: { micro_usd: 20_000, usd: '0.02' }, output_per_million: { micro_usd: 0, usd: '0.00' }, context_length: 8192, max_output_tokens: null, tool_calling: null, image_input: null },
      { name: 'echo-image', free: false, kind: 'image', per_image: { micro_usd: 40_000, usd: '0.04' }, input_per_million: { micro_usd: 0, usd: '0.00' }, output_per_million: { micro_usd: 0, usd: '0.00' }, context_length: null, max_output_tokens: null, tool_calling: null, image_input: null },
    ]);
    assert.ok(!answer.text.includes(t.key), 'no secret');
    assert.ok(!answer.text.includes(t.key.slice(3, 20)), 'no part of the secret beyond the prefix');
    assert.ok(!answer.text.includes(hashKey(t.key)), 'no hash');
  });

  it('lists a request just made, with its X-Request-Id, tokens and cost; the balance fell by exactly that cost', async () => {
    const before = (await call(t.gw, 'GET', '/api/console/me', { key: t.key })).json.balance;
    const requestId = await chatOnce(t, t.key);
    // No wait: the logs are written in batches, and a console read must still see this one.
    const logs = await call(t.gw, 'GET', '/api/console/logs', { key: t.key });
    assert.equal(logs.status, 200, logs.text);
    assert.equal(logs.json.limit, 50);
    const row = logs.json.data[0];
    assert.equal(row.request_id, requestId, 'newest first');
    assert.equal(row.path, '/v1/chat/completions');
    assert.equal(row.model, 'echo');
    assert.equal(row.status, 200);
    assert.equal(row.error_code, null);
    assert.equal(row.stream, false);
    assert.ok(row.prompt_tokens > 0 && row.completion_tokens > 0);
    assert.equal(row.cost.micro_usd, costOf(row.prompt_tokens, row.completion_tokens, 2_000_000, 8_000_000));
    assert.ok(row.cost.micro_usd > 0);
    assert.ok(Number.isInteger(row.latency_ms) && row.latency_ms >= 0);
    assert.ok(!Number.isNaN(Date.parse(row.time)));

    const after = (await call(t.gw, 'GET', '/api/console/me', { key: t.key })).json.balance;
    assert.equal(before.remaining.micro_usd - after.remaining.micro_usd, row.cost.micro_usd);
    assert.equal(after.used.micro_usd - before.used.micro_usd, row.cost.micro_usd);

    // A refused request of this key is listed too, with its code; the console's own reads are not.
    const refused = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('no-such-model') });
    const again = (await call(t.gw, 'GET', '/api/console/logs', { key: t.key })).json.data;
    assert.deepEqual(again.map((l: { request_id: string }) => l.request_id), [refused.headers.get('x-request-id'), requestId]);
    assert.equal(again[0].status, 404);
    assert.equal(again[0].error_code, 'model_not_found');
  });

  it("shows only this key's logs: not another account's, not another key of the same account, not an old key of the same name", async () => {
    const admin = t.admin();
    await admin.createAccount('other', 5_000_000);
    const other = await createKey(admin, { account: 'other', name: 'other-key' });
    const sibling = await createKey(admin, { account: 'local', name: 'sibling' });
    const mine = await chatOnce(t, t.key, 'mine');
    const theirs = await chatOnce(t, other.secret, 'theirs');
    const siblings = await chatOnce(t, sibling.secret, 'sibling');

    const ids = async (key: string) => (await call(t.gw, 'GET', '/api/console/logs', { key })).json.data.map((l: { request_id: string }) => l.request_id);
    assert.deepEqual(await ids(t.key), [mine]);
    assert.deepEqual(await ids(other.secret), [theirs]);
    assert.deepEqual(await ids(sibling.secret), [siblings]);
    assert.equal((await call(t.gw, 'GET', '/api/console/me', { key: other.secret })).json.account.name, 'other');

    // Same name, new key: the old key's requests are not the new key's.
    await admin.deleteKey((await keyNamed(admin, 'sibling')).id);
    const renewed = await createKey(admin, { account: 'local', name: 'sibling' });
    assert.deepEqual(await ids(renewed.secret), []);
  });

  it('bounds the limit and refuses a malformed one', async () => {
    for (let i = 0; i < 3; i++) await chatOnce(t, t.key, `n${i}`);
    const one = await call(t.gw, 'GET', '/api/console/logs?limit=1', { key: t.key });
    assert.equal(one.json.data.length, 1);
    assert.equal((await call(t.gw, 'GET', '/api/console/logs?limit=100000', { key: t.key })).json.limit, 200);
    for (const bad of ['0', '-1', 'x', '1.5']) assertError(await call(t.gw, 'GET', `/api/console/logs?limit=${bad}`, { key: t.key }), 400, 'invalid_request');
  });

  it('refuses like /v1 does: 401 without or with a wrong key, 403 for a disabled key', async () => {
    for (const path of ['/api/console/me', '/api/console/logs']) {
      assertError(await call(t.gw, 'GET', path), 401, 'missing_api_key');
      assertError(await call(t.gw, 'GET', path, { key: 'sk-wrong' }), 401, 'invalid_api_key');
      assertError(await call(t.gw, 'GET', path, { headers: { authorization: `Bearer  ${t.key}` } }), 401, 'api_key_whitespace');
    }
    const admin = t.admin();
    const { secret } = await createKey(admin, { account: 'local', name: 'to-disable' });
    await admin.setKeyStatus((await keyNamed(admin, 'to-disable')).id, 'disabled');
    assertError(await call(t.gw, 'GET', '/api/console/me', { key: secret }), 403, 'key_disabled');
  });

  it('reads one key through the key_id index', async () => {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const db = new DatabaseSync(join(t.dir, 'gateway.db'));
    try {
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT l.*, a.name AS account_name FROM request_logs l LEFT JOIN accounts a ON a.id = l.account_id WHERE l.key_id = ? ORDER BY l.id DESC LIMIT ?').all(1, 50);
      const details = plan.map((r) => String(r.detail)).join(' | ');
      assert.match(details, /USING (COVERING )?INDEX request_logs_key/);
      assert.doesNotMatch(details, /TEMP B-TREE/, 'no sort: the index gives the order');
    } finally {
      db.close();
    }
  });

  it('works the same on the in-memory store', async () => {
    const gw = await startGateway({ inMemory: true, port: 0, bootstrap: true });
    try {
      const key = gw.bootstrapKey!;
      const chat = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() });
      const logs = await call(gw, 'GET', '/api/console/logs', { key });
      assert.deepEqual(logs.json.data.map((l: { request_id: string }) => l.request_id), [chat.headers.get('x-request-id')]);
      const me = (await call(gw, 'GET', '/api/console/me', { key })).json;
      assert.equal(10_000_000 - me.balance.remaining.micro_usd, logs.json.data[0].cost.micro_usd);
    } finally {
      await gw.stop();
    }
  });
});

// A key's requests per day, tokens per minute and IP allow-list (issue 10), over real HTTP with the official
// openai SDK on a real SQLite file. Requests per day: the next one is 429 rate_limited naming the limit, with
// Retry-After until the UTC day ends, and the new day (the gateway's clock) starts again; a restart keeps the
// day's count. Tokens per minute: admitted while the minute's settled tokens are under the limit. The IP list:
// a request from another address (the client's local address bound to 127.0.0.1 or 127.0.0.2) is 403
// ip_not_allowed naming the address; X-Forwarded-For counts only when the operator said --trust-proxy.
// (Each request of the SDK goes through undici with the client's socket bound to the local address asked.)
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { refusalOf, type SdkError } from '../../support/sdkRefusal.ts';
import { Agent, fetch as undiciFetch } from 'undici';
import { createKey } from '../../../src/gateway/admin.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import { DAY_MS } from '../../../src/gateway/store/keySettings.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';
import { assertError } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';

/** The official SDK on the gateway, its requests leaving from `localAddress` (127.0.0.1 unless told). */
function sdk(url: string, key: string, localAddress?: string): OpenAI {
  // The Client's own localAddress (undici sets the socket's from it, over any `connect.localAddress`).
  const dispatcher = localAddress ? new Agent({ localAddress }) : undefined;
  return new OpenAI({
    apiKey: key, baseURL: `${url}/v1`, maxRetries: 0,
    ...(dispatcher ? { fetch: ((input: string, init: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch } : {}),
  });
}

const ask = (openai: OpenAI) => openai.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'one two three' }] });


describe("a key's requests per day, tokens per minute and IP allow-list", () => {
  let t: Started;
  let now = Date.now();
  before(async () => {
    t = await startTestGateway({ clock: () => now });
  });
  after(async () => {
    await t?.close();
  });

  it('requests per day: the next one is 429 rate_limited naming the limit, Retry-After until midnight UTC; the next UTC day starts again', async () => {
    const { secret } = await createKey(t.admin(), { account: 'local', name: 'rpd-3', rpd: 3 });
    const openai = sdk(t.gw.url, secret);
    for (let i = 0; i < 3; i++) await ask(openai);
    const refused = await refusalOf(ask(openai));
    assert.equal(refused.status, 429);
    assert.equal(refused.code, 'rate_limited');
    const midnight = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    assert.match(refused.message, new RegExp(`The limit of this key is 3 requests per day \\(UTC\\); it resets at ${new Date(midnight).toISOString().replace(/\./g, '\\.')}`));
    const retryAfter = Number(refused.headers?.get('retry-after'));
    assert.ok(Math.abs(retryAfter - Math.ceil((midnight - now) / 1000)) <= 1, `Retry-After ${retryAfter}`);
    // A refused request is not one of the day's: still refused, not counted further.
    assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() }), 429, 'rate_limited');

    now = midnight + 1000;
    for (let i = 0; i < 3; i++) await ask(openai);
    assert.equal((await refusalOf(ask(openai))).code, 'rate_limited');
  });

  it("requests per day survive a restart: the day's count is read back from the store", async () => {
    const started = await startTestGateway();
    try {
      const { secret } = await createKey(started.admin(), { account: 'local', name: 'rpd-restart', rpd: 2 });
      await ask(sdk(started.gw.url, secret));
      await started.gw.stop();
      const again = await startGateway({ dataDir: started.dir, port: 0, echoDelayMs: 0 });
      try {
        await ask(sdk(again.url, secret));
        assert.equal((await refusalOf(ask(sdk(again.url, secret)))).code, 'rate_limited', 'one before the restart and one after make two');
      } finally {
        await again.stop();
      }
    } finally {
      await started.close().catch(() => undefined);
    }
  });

  it('tokens per minute: admitted while the settled tokens of the minute are under the limit, then 429 naming it until the minute ends', async () => {
    const { secret } = await createKey(t.admin(), { account: 'local', name: 'tpm', tpm: 40 });
    const openai = sdk(t.gw.url, secret);
    now = Math.floor(now / 60_000) * 60_000 + 1000;
    const first = await ask(openai);
    const used = first.usage!.total_tokens;
    assert.ok(used > 0 && used < 40, `one request's tokens: ${used}`);
    let served = 1;
    let refused: SdkError | null = null;
    while (!refused && served < 40) {
      try {
        await ask(openai);
        served++;
      } catch (error) {
        refused = error as SdkError;
      }
    }
    assert.equal(served, Math.ceil(40 / used), `each request admitted while under 40 tokens (${used} a request)`);
    assert.equal(refused!.status, 429);
    assert.equal(refused!.code, 'rate_limited');
    assert.match(refused!.message, new RegExp(`The limit of this key is 40 tokens per minute .*; ${served * used} were used in this minute`));
    assert.equal(refused!.headers?.get('retry-after'), '59');
    now += 60_000;
    await ask(openai);
  });

  it('IP allow-list: a key allowed only 127.0.0.2 refuses a request from 127.0.0.1 (403 ip_not_allowed naming it) and serves one from 127.0.0.2', async () => {
    const { secret } = await createKey(t.admin(), { account: 'local', name: 'ip-2', allowIps: ['127.0.0.2'] });
    const refused = await refusalOf(ask(sdk(t.gw.url, secret, '127.0.0.1')));
    assert.equal(refused.status, 403);
    assert.equal(refused.code, 'ip_not_allowed');
    assert.match(refused.message, /This request came from 127\.0\.0\.1\./);
    const answer = await ask(sdk(t.gw.url, secret, '127.0.0.2'));
    assert.equal(answer.choices[0]!.message.content, 'You said: one two three');
    // A range, and a list: 127.0.0.0/30 holds .1 and .2, and the GETs are held to it too.
    const ranged = await createKey(t.admin(), { account: 'local', name: 'ip-range', allowIps: ['2001:db8::/32', '127.0.0.0/30'] });
    await ask(sdk(t.gw.url, ranged.secret, '127.0.0.1'));
    const narrow = await createKey(t.admin(), { account: 'local', name: 'ip-v6-only', allowIps: ['::1'] });
    assert.equal((await refusalOf(sdk(t.gw.url, narrow.secret).models.list())).code, 'ip_not_allowed');
    // Without --trust-proxy, X-Forwarded-For is anyone's to send, so it is ignored.
    assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody(), headers: { 'X-Forwarded-For': '127.0.0.2' } }), 403, 'ip_not_allowed');
    const logs = await poll('the three requests of ip-2 logged', async () => {
      const rows = (await t.admin().listLogs(50)).filter((l) => l.keyName === 'ip-2');
      return rows.length === 3 ? rows : undefined;
    }, 2000, 20);
    assert.deepEqual(logs.map((l) => `${l.status} ${l.errorCode}`).sort(), ['200 null', '403 ip_not_allowed', '403 ip_not_allowed']);
  });

  it('behind a proxy (trustProxy): the last X-Forwarded-For address is the one checked, never an earlier one a client wrote', async () => {
    const proxied = await startTestGateway({ trustProxy: true });
    try {
      const { secret } = await createKey(proxied.admin(), { account: 'local', name: 'proxied', allowIps: ['203.0.113.0/24'] });
      const post = (forwarded?: string) =>
        call(proxied.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody(), ...(forwarded ? { headers: { 'X-Forwarded-For': forwarded } } : {}) });
      assert.equal((await post('198.51.100.1, 203.0.113.9')).status, 200);
      const spoofed = await post('203.0.113.9, 198.51.100.1');
      assertError(spoofed, 403, 'ip_not_allowed');
      assert.match(spoofed.json.error.message, /came from 198\.51\.100\.1\./);
      assertError(await post(), 403, 'ip_not_allowed');
    } finally {
      await proxied.close();
    }
  });
});

// A key's spending limit (issue 10), over real HTTP with the official openai SDK, on a real SQLite file:
// the key stops with 403 key_spend_limit_reached once it has spent its limit, whatever the account's
// balance, with the limit, what it spent and when it resets in the message; concurrent requests hold their
// reservations against the key, so it is never overspent; a daily limit starts again at the next UTC day
// (the gateway's test clock); and the account's logs still add up to its balance exactly.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { refusalOf, type SdkError } from '../../support/sdkRefusal.ts';
import { createKey } from '../../../src/gateway/admin.ts';
import { DAY_MS } from '../../../src/gateway/store/keySettings.ts';
import { newChannel } from '../../support/channels.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { chatModel, startTestGateway, type Started } from './helpers.ts';

// Output at $1 per million tokens (1 micro-USD a token), input free: a request capped at 100 tokens
// reserves 100 micro-USD, and the fake upstream's usage (100 completion tokens) charges exactly that.
const USAGE = { usage: { prompt_tokens: 7, completion_tokens: 100 } } as const;

describe("a key's spending limit", () => {
  let upstream: FakeUpstream;
  let t: Started;
  // The gateway's clock starts at the real time (the logs are written at it) and is moved past midnight UTC below.
  let now = Date.now();
  before(async () => {
    upstream = await startFakeUpstream(USAGE);
    t = await startTestGateway({ clock: () => now });
    const admin = t.admin();
    await admin.addChannel(newChannel({ name: 'up', baseUrl: upstream.url, models: { metered: 'metered' } }));
    await admin.setModel(chatModel('metered', 0, 1_000_000));
    await admin.createAccount('rich', 1_000_000_000); // $1,000: the account never runs short here
  });
  after(async () => {
    await t?.close();
    await upstream?.close();
  });
  beforeEach(() => (upstream.behaviour = USAGE));

  const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
  const ask = (openai: OpenAI) => openai.chat.completions.create({ model: 'metered', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
  const keyLogs = async (name: string) => (await t.admin().listLogs(1000)).filter((l) => l.keyName === name);
  const flushed = async (name: string, count: number) => {
    for (let i = 0; i < 100 && (await keyLogs(name)).length < count; i++) await new Promise((r) => setTimeout(r, 20));
    return keyLogs(name);
  };

  it('N requests fit exactly; the next is refused 403 key_spend_limit_reached whatever the balance, saying the limit, the spending and "never"', async () => {
    const { secret } = await createKey(t.admin(), { account: 'rich', name: 'total-5', spendLimitUsd: '0.0005' });
    const openai = client(secret);
    for (let i = 0; i < 5; i++) assert.equal((await ask(openai)).choices[0]!.finish_reason !== undefined, true);
    const refused = await refusalOf(ask(openai));
    assert.equal(refused.status, 403);
    assert.equal(refused.code, 'key_spend_limit_reached');
    assert.match(refused.message, /Its limit is \$0\.0005 in total; it has spent \$0\.0005\. It is a total limit: it never resets\./);
    assert.equal(upstream.requests.length >= 5, true);
    const before = upstream.requests.length;
    await refusalOf(ask(openai));
    assert.equal(upstream.requests.length, before, 'a refused request never reaches the upstream');
    const logs = await flushed('total-5', 7);
    assert.deepEqual(logs.map((l) => l.cost).sort(), [0, 0, 100, 100, 100, 100, 100]);
    assert.ok((await t.admin().getAccount('rich'))!.balance > 900_000_000, 'the account had plenty all along');
  });

  it('a reservation is capped by what is left of the limit, as by the balance: the last request gets a lower max_tokens', async () => {
    const { secret } = await createKey(t.admin(), { account: 'rich', name: 'odd', spendLimitUsd: '0.00015' });
    const openai = client(secret);
    await ask(openai);
    upstream.behaviour = { usage: { prompt_tokens: 7, completion_tokens: 50 } };
    const { response } = await ask(openai).withResponse();
    assert.equal(response.headers.get('x-gateway-max-tokens'), '50', 'what is left of the limit (50 micro-USD) pays for 50 tokens');
    assert.equal(upstream.requests.at(-1)!.body.max_tokens, 50);
    assert.equal((await refusalOf(ask(openai))).code, 'key_spend_limit_reached');
  });

  it('refused with some of the limit left: the message says what is left and why it does not pay', async () => {
    const { secret } = await createKey(t.admin(), { account: 'rich', name: 'almost', spendLimitUsd: '0.000101' });
    const openai = client(secret);
    let refused: Awaited<ReturnType<typeof refusalOf>> | null = null;
    for (let i = 0; i < 5 && !refused; i++) refused = await ask(openai).then(() => null, (error: unknown) => refusalOf(Promise.reject(error)));
    assert.equal(refused?.code, 'key_spend_limit_reached');
    const spent = /it has spent \$(0\.\d+)\./.exec(refused!.message)?.[1];
    assert.ok(spent !== undefined && Number(spent) < 0.000101, `refused before the limit was quite spent: ${refused!.message}`);
    assert.match(refused!.message, /What is left, \$0\.0000\d+, cannot pay for the least this request may cost/);
  });

  it('30 concurrent requests against a limit that fits 10: at most the limit is spent, the rest are 403, and the logs add up to the balance', async () => {
    upstream.behaviour = { ...USAGE, headersDelayMs: 150 };
    const { secret } = await createKey(t.admin(), { account: 'rich', name: 'burst', spendLimitUsd: '0.001' });
    const balanceBefore = (await t.admin().getAccount('rich'))!.balance;
    const spentBefore = (await t.admin().listLogs(10_000)).filter((l) => l.accountName === 'rich').reduce((sum, l) => sum + l.cost, 0);
    const openai = client(secret);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => ask(openai).then(() => 'ok', (error: unknown) => error)));
    const served = outcomes.filter((o) => o === 'ok').length;
    const refused = outcomes.filter((o) => o !== 'ok') as SdkError[];
    assert.equal(served, 10, 'ten reservations of 100 fit in 1,000 micro-USD, and no more');
    assert.deepEqual([...new Set(refused.map((e) => `${e.status} ${e.code}`))], ['403 key_spend_limit_reached']);
    assert.ok(refused.some((e) => /requests in flight hold \$0\.001/.test(e.message)), 'a refusal while the ten are in flight says they hold the limit');
    const logs = await flushed('burst', 30);
    assert.ok(logs.reduce((sum, l) => sum + l.cost, 0) <= 1000, 'never more than the limit');
    assert.equal(logs.reduce((sum, l) => sum + l.cost, 0), 1000);
    const balanceAfter = (await t.admin().getAccount('rich'))!.balance;
    const spentAfter = (await t.admin().listLogs(10_000)).filter((l) => l.accountName === 'rich').reduce((sum, l) => sum + l.cost, 0);
    assert.equal(balanceBefore - balanceAfter, spentAfter - spentBefore, "the account's logs add up to its balance exactly");
  });

  it("a daily limit starts again at the next UTC day (the gateway's clock), and says when in its refusal", async () => {
    const { secret } = await createKey(t.admin(), { account: 'rich', name: 'daily', spendLimitUsd: '0.0002', spendPeriod: 'day' });
    const openai = client(secret);
    await ask(openai);
    await ask(openai);
    const refused = await refusalOf(ask(openai));
    assert.equal(refused.code, 'key_spend_limit_reached');
    const midnight = new Date((Math.floor(now / DAY_MS) + 1) * DAY_MS).toISOString();
    assert.match(refused.message, new RegExp(`per UTC day; it has spent \\$0\\.0002\\. The limit resets at ${midnight.replace(/[.]/g, '\\.')}`));
    now = (Math.floor(now / DAY_MS) + 1) * DAY_MS + 1000;
    await ask(openai);
    await ask(openai);
    assert.equal((await refusalOf(ask(openai))).code, 'key_spend_limit_reached', 'the new day has the same limit');
  });

  it("a key's limit is changed at once; rotation keeps it; a key without one is never refused by it", async () => {
    const made = await createKey(t.admin(), { account: 'rich', name: 'changed', spendLimitUsd: '0.0001' });
    await ask(client(made.secret));
    assert.equal((await refusalOf(ask(client(made.secret)))).code, 'key_spend_limit_reached');
    const { changeKeyLimits, rotateKey } = await import('../../../src/gateway/admin.ts');
    await changeKeyLimits(t.admin(), made.key, { spendLimitUsd: '0.0003' });
    await ask(client(made.secret));
    const { secret } = await rotateKey(t.admin(), made.key.id);
    await ask(client(secret));
    assert.equal((await refusalOf(ask(client(secret)))).code, 'key_spend_limit_reached', 'the rotated key spent the same $0.0003');
    const plain = await createKey(t.admin(), { account: 'rich', name: 'plain' });
    for (let i = 0; i < 5; i++) await ask(client(plain.secret));
  });
});

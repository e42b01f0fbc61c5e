// Concurrent requests against one account with a small balance, per billing kind (tokens, in each chat format; images): the
// balance never goes negative, and the starting balance minus the final balance equals the logged costs, exactly.
import assert from 'node:assert/strict';
import { createKey, ECHO_IMAGE_PRICE } from '../../../src/gateway/admin.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';
import { assertError } from '../../support/answer.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startFakeUpstream } from '../../support/fakeUpstream.ts';
import type { StoredLog } from '../../../src/gateway/store/types.ts';

const START = 2_000; // micro-USD: a fifth of a cent
const REQUESTS = 200;

describe('accounting under concurrency', () => {
  // Token billing in each chat format, on the echo model (a third streamed, half with a small cap): OpenAI's chat
  // completions, Anthropic's Messages (its error body carries our code too) and OpenAI's Responses.
  const FORMATS = [
    { path: '/v1/chat/completions', body: (text: string, stream: boolean, capped: boolean) => chatBody('echo', text, { stream, ...(capped ? { max_tokens: 6 } : {}) }) },
    { path: '/v1/messages', body: (text: string, stream: boolean, capped: boolean) => ({ model: 'echo', max_tokens: capped ? 6 : 64, stream, messages: [{ role: 'user', content: text }] }) },
    { path: '/v1/responses', body: (text: string, stream: boolean, capped: boolean) => ({ model: 'echo', stream, input: text, ...(capped ? { max_output_tokens: 6 } : {}) }) },
  ] as const;
  for (const format of FORMATS) {
    it(`${format.path}: ${REQUESTS} concurrent requests on a ${START} micro-USD account never overdraw it, and logs add up exactly`, async () => {
      const t = await startTestGateway();
      try {
        const key = await tinyKey(t, START);
        const answers = await Promise.all(
          Array.from({ length: REQUESTS }, (_, i) => call(t.gw, 'POST', format.path, { key, body: format.body(`request ${i} asks for a short answer`, i % 3 === 0, i % 2 === 0) })),
        );
        const ok = answers.filter((a) => a.status === 200).length;
        // Refused: the account cannot pay (403), or only the requests in flight hold its balance (429, retry).
        const refused = answers.filter((a) => ['insufficient_balance', 'balance_in_use'].includes(a.json?.error?.code)).length;
        assert.equal(ok + refused, REQUESTS, `only successes, insufficient_balance and balance_in_use: ${[...new Set(answers.map((a) => a.status))]}`);
        assert.ok(ok > 0 && refused > 0, `some served (${ok}), some refused (${refused})`);

        const mid = await call(t.gw, 'GET', '/v1/dashboard/billing/subscription', { key });
        assert.ok(mid.json.balance_usd >= 0);

        const logs = await settledLogs(t, 'tiny', START, format.path);
        assert.equal(logs.length, REQUESTS, 'every request is logged');
        assert.equal(logs.filter((l) => l.status === 200 && l.cost > 0).length, ok);
      } finally {
        await t.close();
      }
    });
  }

  it('a balance held by requests in flight is a 429 to retry (balance_in_use, Retry-After), not "insufficient balance"; an empty one stays a 403', async () => {
    const upstream = await startFakeUpstream({ gated: true, pieces: ['a', 'b'] });
    const t = await startTestGateway();
    try {
      await addChannelPricedFree(t.admin(), newChannel({ name: 'slow', baseUrl: upstream.url, models: { slow: 'slow' } }));
      await t.admin().setModel({ name: 'slow', kind: 'chat', inputPrice: 0, outputPrice: 1_000_000, imagePrice: null, contextLength: null, toolCalling: null });
      // 100 micro-USD pays for one request capped at 100 tokens; each really costs 2.
      const key = await tinyKey(t, 100);
      const body = chatBody('slow', 'hi', { max_tokens: 100, stream: true });
      const first = call(t.gw, 'POST', '/v1/chat/completions', { key, body });
      await upstream.received(1);
      const second = await call(t.gw, 'POST', '/v1/chat/completions', { key, body });
      assertError(second, 429, 'balance_in_use');
      assert.equal(second.headers.get('retry-after'), '1');
      upstream.release(5);
      assert.equal((await first).status, 200);
      assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key, body })).status, 200, 'the retry is served once the first request is charged');

      await t.admin().createAccount('empty', 0);
      const emptyKey = (await createKey(t.admin(), { account: 'empty', name: 'empty-key' })).secret;
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: emptyKey, body }), 403, 'insufficient_balance');
    } finally {
      await t.close();
      await upstream.close();
    }
  });

  it('images, billed per image: concurrent requests for 1 to 3 images never overdraw, and each charge is its images x the price', async () => {
    const t = await startTestGateway();
    try {
      const start = 7 * ECHO_IMAGE_PRICE;
      const secret = await tinyKey(t, start);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call(t.gw, 'POST', '/v1/images/generations', { key: secret, body: { model: 'echo-image', prompt: `image ${i}`, n: 1 + (i % 3), size: '4x4' } }),
        ),
      );
      const ok = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 403 && a.json?.error?.code === 'insufficient_balance').length;
      assert.equal(ok.length + refused, answers.length, `only successes and insufficient_balance: ${[...new Set(answers.map((a) => a.status))]}`);
      assert.ok(ok.length > 0 && refused > 0, `some served (${ok.length}), some refused (${refused})`);
      const delivered = ok.reduce((n, a) => n + a.json.data.length, 0);
      assert.ok(delivered <= 7, `${delivered} images delivered for the price of 7`);
      const logs = await settledLogs(t, 'tiny', start, '/v1/images/generations');
      assert.equal(logs.reduce((sum, l) => sum + l.cost, 0), delivered * ECHO_IMAGE_PRICE);
    } finally {
      await t.close();
    }
  });
});

/** A key, with limits too high to matter, on a new account `tiny` holding `balance` micro-USD. */
async function tinyKey(t: Started, balance: number): Promise<string> {
  await t.admin().createAccount('tiny', balance);
  return (await createKey(t.admin(), { account: 'tiny', name: 'tiny-key', concurrency: 10_000, rpm: 100_000 })).secret;
}

/**
 * Stops the gateway, then checks the account on disk: not negative, and its decrease and total spent
 * both equal the costs logged on `path`. Returns those log rows.
 */
async function settledLogs(t: Started, accountName: string, start: number, path: string): Promise<StoredLog[]> {
  await t.gw.stop();
  const store = openStore({ dataDir: t.dir });
  try {
    const account = (await store.getAccount(accountName))!;
    const logs = (await store.listLogs(10_000)).filter((l) => l.accountName === accountName && l.path === path);
    const logged = logs.reduce((sum, l) => sum + l.cost, 0);
    assert.ok(account.balance >= 0, `balance ${account.balance} is not negative`);
    assert.equal(start - account.balance, logged);
    assert.equal(account.totalSpent, logged);
    return logs;
  } finally {
    await store.close();
  }
}

// Concurrent requests against one account with a small balance, per billing kind (tokens, in each chat format; images): the
// balance never goes negative, and the starting balance minus the final balance equals the logged costs, exactly.
import assert from 'node:assert/strict';
import { createKey, ECHO_IMAGE_PRICE } from '../../../src/gateway/admin.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';
import type { StoredLog } from '../../../src/gateway/store/types.ts';

const START = 2_000; // micro-USD: a fifth of a cent
const REQUESTS = 300;

describe('accounting under concurrency', () => {
  it(`${REQUESTS} concurrent chats on a ${START} micro-USD account never overdraw it, and logs add up exactly`, async () => {
    const t = await startTestGateway();
    try {
      const admin = t.admin();
      await admin.createAccount('tiny', START);
      const { secret } = await createKey(admin, { account: 'tiny', name: 'tiny-key', concurrency: 10_000, rpm: 100_000 });
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) =>
          call(t.gw, 'POST', '/v1/chat/completions', {
            key: secret,
            body: chatBody('echo', `request ${i} asks for a short answer`, { stream: i % 3 === 0, ...(i % 2 === 0 ? { max_tokens: 6 } : {}) }),
          }),
        ),
      );
      const ok = answers.filter((a) => a.status === 200).length;
      const refused = answers.filter((a) => a.status === 403 && a.json?.error?.code === 'insufficient_balance').length;
      assert.equal(ok + refused, REQUESTS, `only successes and insufficient_balance: ${[...new Set(answers.map((a) => a.status))]}`);
      assert.ok(ok > 0, 'some requests were served');
      assert.ok(refused > 0, 'the balance ran out');

      const mid = await call(t.gw, 'GET', '/v1/dashboard/billing/subscription', { key: secret });
      assert.ok(mid.json.balance_usd >= 0);

      const logs = await settledLogs(t, 'tiny', START, '/v1/chat/completions');
      assert.equal(logs.length, REQUESTS, 'every request is logged');
      assert.equal(logs.filter((l) => l.status === 200 && l.cost > 0).length, ok);
    } finally {
      await t.close();
    }
  });

  // The same token billing through the other chat formats, on the echo model: Anthropic's Messages (its error body
  // carries our code too) and OpenAI's Responses.
  const FORMATS = [
    { path: '/v1/messages', body: (text: string, stream: boolean) => ({ model: 'echo', max_tokens: 6, stream, messages: [{ role: 'user', content: text }] }) },
    { path: '/v1/responses', body: (text: string, stream: boolean) => ({ model: 'echo', stream, input: text }) },
  ] as const;
  for (const format of FORMATS) {
    it(`${format.path}: 150 concurrent requests on a ${START} micro-USD account never overdraw it, and logs add up exactly`, async () => {
      const t = await startTestGateway();
      try {
        const admin = t.admin();
        await admin.createAccount('tiny', START);
        const { secret } = await createKey(admin, { account: 'tiny', name: 'tiny-key', concurrency: 10_000, rpm: 100_000 });
        const answers = await Promise.all(
          Array.from({ length: 150 }, (_, i) => call(t.gw, 'POST', format.path, { key: secret, body: format.body(`request ${i} asks for a short answer`, i % 3 === 0) })),
        );
        const ok = answers.filter((a) => a.status === 200).length;
        const refused = answers.filter((a) => a.status === 403 && a.json?.error?.code === 'insufficient_balance').length;
        assert.equal(ok + refused, answers.length, `only successes and insufficient_balance: ${[...new Set(answers.map((a) => a.status))]}`);
        assert.ok(ok > 0 && refused > 0, `some served (${ok}), some refused (${refused})`);
        const logs = await settledLogs(t, 'tiny', START, format.path);
        assert.equal(logs.length, answers.length, 'every request is logged');
        assert.equal(logs.filter((l) => l.status === 200 && l.cost > 0).length, ok);
      } finally {
        await t.close();
      }
    });
  }

  it('images, billed per image: concurrent requests for 1 to 3 images never overdraw, and each charge is its images x the price', async () => {
    const t = await startTestGateway();
    try {
      const admin = t.admin();
      const start = 7 * ECHO_IMAGE_PRICE;
      await admin.createAccount('tiny', start);
      const { secret } = await createKey(admin, { account: 'tiny', name: 'tiny-key', concurrency: 10_000, rpm: 100_000 });
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

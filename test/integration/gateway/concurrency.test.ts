// Hundreds of concurrent requests against one account with a small balance: the balance never goes
// negative, and the starting balance minus the final balance equals the sum of logged costs, exactly.
import assert from 'node:assert/strict';
import { createKey } from '../../../src/gateway/admin.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { call, chatBody, startTestGateway } from './helpers.ts';

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

      await t.gw.stop();
      const store = openStore({ dataDir: t.dir });
      try {
        const account = (await store.getAccount('tiny'))!;
        const logs = (await store.listLogs(10_000)).filter((l) => l.keyName === 'tiny-key' && l.path === '/v1/chat/completions');
        assert.equal(logs.length, REQUESTS, 'every request is logged');
        const logged = logs.reduce((sum, l) => sum + l.cost, 0);
        assert.ok(account.balance >= 0, `balance ${account.balance} is not negative`);
        assert.equal(START - account.balance, logged);
        assert.equal(account.totalSpent, logged);
        assert.equal(logs.filter((l) => l.status === 200 && l.cost > 0).length, ok);
      } finally {
        await store.close();
      }
    } finally {
      await t.close();
    }
  });
});

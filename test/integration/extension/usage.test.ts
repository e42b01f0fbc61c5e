// What the Usage view reads, against the real gateway (balance, today, month, days) and a gateway of the
// one-api / new-api family (balance and total only, by-day spending reported as not given, not as an error).
import assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/client/index.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { readUsage } from '../../../src/extension/usage/readUsage.ts';
import { localDate } from '../../../src/extension/usage/summary.ts';
import { FakeOneApi } from '../../support/fakeOneApi.ts';
import { tempDir } from '../gateway/helpers.ts';
import { rmSync } from 'node:fs';

describe('Usage view data, over HTTP', () => {
  let gw: RunningGateway;
  let dir: string;
  const clients: GatewayClient[] = [];
  const client = (baseUrl: string, apiKey: string) => {
    const c = new GatewayClient({ baseUrl, apiKey, maxRetries: 0 });
    clients.push(c);
    return c;
  };

  before(async () => {
    dir = tempDir();
    gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, echoDelayMs: 0 });
  });

  after(async () => {
    for (const c of clients) await c.close();
    await gw?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('our gateway: today and this month equal what the chats cost, the balance what is left', async () => {
    const c = client(`${gw.url}/v1`, gw.bootstrapKey!);
    const before = await readUsage(c);
    assert.equal(before.todayUsd, 0);
    let spent = 0;
    for (const content of ['first', 'second']) spent += (await c.chat({ model: 'echo', messages: [{ role: 'user', content }] })).usage?.['cost'] as number;
    assert.ok(spent > 0);
    const after = await readUsage(c);
    assert.equal(after.todayUsd, Math.round(spent * 1e6) / 1e6);
    assert.equal(after.monthUsd, after.todayUsd, 'a fresh gateway spent nothing earlier this month');
    assert.equal(after.balance.remainingUsd, Math.round((10 - spent) * 1e6) / 1e6);
    assert.equal(after.recentDays?.at(-1)?.date, localDate(new Date()));
    assert.equal(after.recentDays?.at(-1)?.requests, 2);
  });

  for (const flavour of ['one_api', 'new_api'] as const) {
    it(`${flavour}: balance and total from the billing endpoints, no by-day spending, and no error for its absence`, async () => {
      const fake = await new FakeOneApi({ flavour, tokens: { 'sk-usage-view-token-1': { remainQuota: 2_500_000, usedQuota: 500_000 } } }).start();
      try {
        const usage = await readUsage(client(fake.url, 'sk-usage-view-token-1'));
        assert.equal(usage.balance.usedUsd, 1);
        assert.deepEqual([usage.todayUsd, usage.monthUsd, usage.recentDays], [null, null, null]);
      } finally {
        await fake.stop();
      }
    });
  }

  it('a refused key is an error, not "cannot show"', async () => {
    await assert.rejects(readUsage(client(gw.url, 'sk-not-a-real-key-000000')), (error: { status?: number }) => error.status === 401);
  });
});

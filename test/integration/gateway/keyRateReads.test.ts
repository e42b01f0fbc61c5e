// What an editor polls (the balance in the status bar, the Usage view's days) is read with the key, but must not
// spend the key's requests per minute or per day: those limit model requests. Before, an idle VS Code reading the
// balance every minute used up a key's `--rpd 1000` in a working day, and two balance readings were enough to
// refuse the first chat of a key with rpm 4. Over real HTTP, with the extension's client.
import assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/client/index.ts';
import { createKey } from '../../../src/gateway/admin.ts';
import { startTestGateway, type Started } from './helpers.ts';

describe("reads of the balance do not spend a key's request rates", () => {
  let t: Started;
  before(async () => {
    t = await startTestGateway();
  });
  after(async () => {
    await t?.close();
  });

  for (const limits of [{ rpm: 2 }, { rpd: 2 }]) {
    it(`${JSON.stringify(limits)}: many balance and daily-usage reads, then both chats are served, the third refused`, async () => {
      const { secret } = await createKey(t.admin(), { account: 'local', name: `reads-${Object.keys(limits)[0]}`, ...limits });
      const client = new GatewayClient({ baseUrl: t.gw.url, apiKey: secret, maxRetries: 0 });
      try {
        for (let i = 0; i < 5; i++) {
          await client.balance();
          await client.dailyUsage(14, 0);
        }
        // The day's count is read back from the logged rows when the key's first model request comes: reads are not there.
        for (let i = 0; i < 2; i++) await client.chat({ model: 'echo', messages: [{ role: 'user', content: `chat ${i}` }] });
        await assert.rejects(client.chat({ model: 'echo', messages: [{ role: 'user', content: 'one too many' }] }), (error: { status?: number; code?: string }) => {
          assert.equal(error.status, 429);
          assert.equal(error.code, 'rate_limited');
          return true;
        });
      } finally {
        await client.close();
      }
    });
  }
});

// Inline completion against a gateway that answers 429 (the key's requests per minute used up, say by typing):
// the engine waits out the Retry-After instead of sending a request on every keystroke, each refused again. The
// refusal is what the status bar keeps showing meanwhile. Real gateway on loopback, a key limited to 2 a minute.
import assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/client/index.ts';
import { createKey } from '../../../src/gateway/admin.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { buildContext } from '../../../src/extension/completions/context.ts';
import { CompletionEngine } from '../../../src/extension/completions/engine.ts';
import { SINGLE_LINE } from '../../../src/extension/completions/lineMode.ts';
import { memoryInMap } from '../../../src/extension/completions/route.ts';
import { call, logOfRequest, startTestGateway, type Started } from '../gateway/helpers.ts';

const at = (marked: string) => buildContext({ path: 'a.ts', languageId: 'typescript', text: marked.replace('|', ''), offset: marked.indexOf('|'), openFiles: [] });

describe('inline completion when the gateway answers 429', () => {
  let t: Started;
  let admin: Store;
  before(async () => {
    t = await startTestGateway();
    admin = t.admin();
  });
  after(async () => {
    await t?.close();
  });

  it('after a 429 no request is sent until its Retry-After has passed; the refusal is given again meanwhile', async () => {
    const { secret } = await createKey(admin, { account: 'local', name: 'typist', rpm: 2 });
    const client = new GatewayClient({ baseUrl: t.gw.url, apiKey: secret, maxRetries: 0 });
    const engine = new CompletionEngine(memoryInMap());
    const ask = (n: number) => engine.complete(client, { baseUrl: t.gw.url, model: 'echo-completion', context: at(`const v${n} = |;`), shape: SINGLE_LINE });
    try {
      await ask(1);
      await ask(2);
      const refused = await ask(3).then(() => assert.fail('the third request in a minute was served'), (error: { family?: string; retryAfterMs?: number | null }) => error);
      assert.equal(refused.family, 'rate_limit');
      assert.ok((refused.retryAfterMs ?? 0) > 0, 'the gateway said when to come back');
      for (let n = 4; n < 10; n++) await assert.rejects(ask(n), (error: { family?: string }) => error.family === 'rate_limit');
      // A request made after them all, once logged, means theirs are logged too (rows are written in order).
      await logOfRequest(admin, (await call(t.gw, 'GET', '/v1/models', { key: t.key })).headers.get('x-request-id'));
      const sent = (await admin.listLogs(100)).filter((l) => l.keyName === 'typist' && l.path === '/v1/completions');
      assert.equal(sent.length, 3, `requests the gateway saw: ${sent.map((l) => l.status).join(', ')}`);
    } finally {
      await client.close();
    }
  });
});

// On PostgreSQL, one log batch carries every request's charge of the last moments, and a batch the database
// refuses is retried whole: a single row it cannot hold would stop billing for everyone. Tried as a client
// and an upstream would try it, over real HTTP: a model name with a NUL (PostgreSQL text cannot hold one)
// an upstream reporting 1e30 tokens (a bigint cannot), and a max_tokens an account's balance affords more of
// than an integer column holds. Each is answered, the requests after it are
// served, every row lands, and the balance falls by exactly the logged charges.
import assert from 'node:assert/strict';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { newChannel } from '../../support/channels.ts';
import { poll } from '../../support/poll.ts';
import { onFreshDatabase } from '../../support/postgresGateways.ts';
import { call, chatBody } from './helpers.ts';
import { MAX_COMPLETION_CAP } from '../../../src/gateway/accounts/ledger.ts';

describe('PostgreSQL: no request or upstream answer makes a log row the database refuses', function () {
  this.timeout(60_000);
  let gw: RunningGateway;
  let store: Store;
  let upstream: FakeUpstream;

  before(async () => {
    const database = await onFreshDatabase();
    store = database.store;
    upstream = await startFakeUpstream((request) => (request.body?.model === 'huge-usage' ? { usage: { prompt_tokens: 1e30, completion_tokens: 1e30 } } : {}));
    gw = await database.start({ bootstrap: true, issueKey: 'poison' });
    await store.addChannel(newChannel({ name: 'up', baseUrl: upstream.url, models: { 'huge-usage': 'huge-usage', fine: 'fine' } }));
    for (const name of ['huge-usage', 'fine']) await store.setModel({ name, kind: 'chat', inputPrice: 1_000_000, outputPrice: 1_000_000, imagePrice: null, contextLength: null, toolCalling: null });
    // $0.001 per million output tokens: the account's $10 affords ten billion of them, more than a PostgreSQL integer holds.
    await store.addChannel(newChannel({ name: 'cheap', type: 'echo', baseUrl: null, apiKey: null, models: { cheap: 'cheap' } }));
    await store.setModel({ name: 'cheap', kind: 'chat', inputPrice: 1_000, outputPrice: 1_000, imagePrice: null, contextLength: null, toolCalling: null });
  });
  after(async () => {
    await gw?.stop();
    await store?.close();
    await upstream?.close();
  });

  it('a NUL in the model is a 400, an absurd upstream usage is estimated; every request after them is served and logged, the money exact', async () => {
    const key = gw.issuedKey!;
    const before = (await store.getAccount('local'))!;
    const nul = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody('a\u0000b') });
    assert.equal(nul.status, 400, nul.text);
    const huge = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody('huge-usage') });
    assert.equal(huge.status, 200, huge.text);
    const far = await call(gw, 'POST', '/v1/chat/completions', { key, body: { ...chatBody('cheap'), max_tokens: 1e15 } });
    assert.equal(far.status, 200, far.text);
    assert.equal(far.headers.get('x-gateway-max-tokens'), String(MAX_COMPLETION_CAP), 'the cap said is the gateway\'s own bound');
    const ids = [nul, huge, far].map((a) => a.headers.get('x-request-id'));
    for (let i = 0; i < 5; i++) {
      const fine = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody('fine') });
      assert.equal(fine.status, 200, `request ${i} after them: ${fine.text}`);
      ids.push(fine.headers.get('x-request-id'));
    }
    const logs = await poll('every row written', async () => {
      const rows = await store.listLogs(100);
      return ids.every((id) => rows.some((l) => l.requestId === id)) ? rows : undefined;
    }, 10_000, 50);
    assert.equal(logs.find((l) => l.requestId === ids[2])!.completionCap, MAX_COMPLETION_CAP);
    const hugeRow = logs.find((l) => l.requestId === ids[1])!;
    assert.equal(hugeRow.usageEstimated, true, 'the upstream\'s count was not taken');
    assert.ok(hugeRow.promptTokens < 1e9 && hugeRow.completionTokens < 1e9, JSON.stringify(hugeRow));
    const after = (await store.getAccount('local'))!;
    const charged = logs.filter((l) => ids.includes(l.requestId)).reduce((sum, l) => sum + l.cost, 0);
    assert.ok(charged > 0);
    assert.equal(before.balance - after.balance, charged, 'the balance fell by exactly the logged charges');
  });
});

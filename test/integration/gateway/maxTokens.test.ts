// The gateway never lowers or sets a completion cap silently: X-Gateway-Max-Tokens on the answer (streamed
// or not) and the log row say so, whether it is the model's default (configurable per model) or what the
// account can pay; a cap the client asked for and can pay for is left alone and not flagged.
import assert from 'node:assert/strict';
import { createKey } from '../../../src/gateway/admin.ts';
import { DEFAULT_COMPLETION_CAP } from '../../../src/gateway/accounts/ledger.ts';
import { newChannel } from '../../support/channels.ts';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatBody, chatModel, logOfRequest, useGatewayWithUpstream, type Started } from './helpers.ts';

describe('completion caps are said, never silent', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'up', baseUrl: upstream.url, models: { plain: 'plain', short: 'short' } }));
    await admin.setModel(chatModel('plain', 1_000_000, 1_000_000));
    await admin.setModel(chatModel('short', 1_000_000, 1_000_000, { defaultMaxTokens: 300 }));
  });
  let t: Started;
  let upstream: FakeUpstream;
  before(() => ({ t, upstream } = suite));

  const capOf = async (answer: { headers: Headers }) => {
    const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
    return { header: answer.headers.get('x-gateway-max-tokens'), logged: log.completionCap ?? null, sent: upstream.requests.at(-1)!.body.max_tokens };
  };

  it('no cap asked: the default goes up and is said, streamed and not', async () => {
    for (const stream of [false, true]) {
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('plain', 'hi', { stream }) });
      assert.equal(answer.status, 200);
      assert.deepEqual(await capOf(answer), { header: String(DEFAULT_COMPLETION_CAP), logged: DEFAULT_COMPLETION_CAP, sent: DEFAULT_COMPLETION_CAP });
    }
  });

  it("a model's own default cap (model price --default-max-tokens)", async () => {
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('short') });
    assert.deepEqual(await capOf(answer), { header: '300', logged: 300, sent: 300 });
  });

  it("the client's own cap, affordable: untouched and not flagged", async () => {
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('plain', 'hi', { max_tokens: 50 }) });
    assert.deepEqual(await capOf(answer), { header: null, logged: null, sent: 50 });
  });

  it("lowered to what the account can pay: said, with the lower number", async () => {
    const admin = t.admin();
    await admin.createAccount('thin', 200); // 200 micro-USD at $1 per million: about 200 tokens with the prompt
    const { secret } = await createKey(admin, { account: 'thin', name: 'thin-key' });
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('plain', 'hi', { max_tokens: 5000 }) });
    assert.equal(answer.status, 200);
    const cap = await capOf(answer);
    assert.ok(cap.logged !== null && cap.logged < 5000 && cap.logged > 16, JSON.stringify(cap));
    assert.deepEqual([cap.header, cap.sent], [String(cap.logged), cap.logged]);
    assert.match(answer.headers.get('access-control-expose-headers') ?? '', /X-Gateway-Max-Tokens/, 'readable by browser clients too');
  });
});

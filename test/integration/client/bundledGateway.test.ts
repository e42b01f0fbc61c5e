// The client against the REAL bundled gateway (src/gateway/server.ts) over HTTP on 127.0.0.1:0,
// on a real SQLite file: the self-test sequence, streaming, balance, and the 401/403/404 errors.
import assert from 'node:assert/strict';
import { ECHO_OWNER } from '../../../src/contract/index.ts';
import { AuthenticationError, NotFoundError, PermissionDeniedError } from '../../../src/client/index.ts';
import { createKey, keyNamed } from '../../../src/gateway/admin.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { startTestGateway } from '../gateway/helpers.ts';
import type { Started } from '../gateway/helpers.ts';
import { drain, rejection, useClients } from './clients.ts';

const hello = (model = 'echo') => ({ model, messages: [{ role: 'user', content: 'hello gateway' }] });

describe('client against the bundled gateway', () => {
  let started: Started;
  let gw: RunningGateway;
  let admin: Store;
  let key: string;
  const { client, logs } = useClients(() => ({ baseUrl: gw.url, apiKey: key }));

  before(async () => {
    started = await startTestGateway();
    ({ gw, key } = started);
    admin = started.admin();
  });
  after(async () => {
    await started?.close();
  });

  it('passes the self-test sequence: status, models, chat', async () => {
    const c = client({ baseUrl: `${gw.url}/v1/` });
    const status = await c.status();
    assert.equal(status.ok, true);
    const models = await c.models();
    assert.ok(models.some((m) => m.id === 'echo' && m.owned_by === ECHO_OWNER));
    assert.deepEqual((await c.chatModels()).map((m) => m.id), ['echo'], 'chat pickers get the chat models only, not echo-embedding and the others');
    const completion = await c.chat(hello());
    assert.equal(completion.choices[0]!.message.role, 'assistant');
    assert.equal(completion.choices[0]!.message.content, 'You said: hello gateway');
    assert.ok(completion.usage!.completion_tokens > 0, 'usage is reported');
  });

  it('streams typed chunks to [DONE]', async () => {
    const chunks = await drain(client().chatStream({ ...hello(), stream_options: { include_usage: true } }));
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    assert.equal(text, 'You said: hello gateway');
    assert.ok(chunks.filter((c) => c.choices[0]?.delta?.content).length > 1, 'the answer came in more than one chunk');
    assert.ok(chunks.some((c) => c.choices[0]?.finish_reason === 'stop'));
    assert.ok(chunks.some((c) => c.usage), 'the usage chunk asked for with include_usage');
  });

  it('reads the balance exactly, before and after a paid chat', async () => {
    await admin.createAccount('client-funded', 2_500_000);
    const { secret } = await createKey(admin, { account: 'client-funded', name: 'client-funded-key' });
    const funded = client({ apiKey: secret });
    assert.deepEqual(await funded.balance(), { remainingUsd: 2.5, usedUsd: 0, limitUsd: 2.5, unlimited: false });
    await funded.chat(hello());
    const after = await funded.balance();
    assert.ok(after.usedUsd! > 0, 'the chat was charged');
    const micro = (usd: number | null) => Math.round(usd! * 1e6);
    assert.equal(micro(after.remainingUsd) + micro(after.usedUsd), 2_500_000, 'what was used left the balance, to the micro-dollar');
  });

  it('embeds texts in input order, says the cost, and the echo model finds the text that shares words with a question', async () => {
    await admin.createAccount('client-embed', 1_000_000);
    const { secret } = await createKey(admin, { account: 'client-embed', name: 'client-embed-key' });
    const texts = ['function renderButton(label) { return html }', 'export function retryRequest(attempts) { backoff(attempts) }', 'const colors = ["red", "green"]'];
    const out = await client({ apiKey: secret }).embeddings({ model: 'echo-embedding', input: texts });
    assert.equal(out.vectors.length, 3);
    assert.ok(out.vectors.every((v) => v.length === 256));
    assert.ok(out.promptTokens! > 0);
    const balance = await client({ apiKey: secret }).balance();
    assert.ok(out.costUsd! > 0 && Math.abs(out.costUsd! - balance.usedUsd!) < 1e-9, `the header's cost ${out.costUsd} is what was charged, ${balance.usedUsd}`);
    const [question] = (await client({ apiKey: secret }).embeddings({ model: 'echo-embedding', input: ['where are requests retried?'] })).vectors;
    const scores = out.vectors.map((v) => v.reduce((sum, x, i) => sum + x * question![i]!, 0));
    assert.equal(scores.indexOf(Math.max(...scores)), 1, `scores ${scores}`);
    await assert.rejects(client({ apiKey: secret }).embeddings({ model: 'echo', input: ['x'] }), (e: unknown) => e instanceof Error && /embeddings|chat/i.test(e.message));
  });

  it('401: a wrong key, and no key', async () => {
    const wrong = await rejection(client({ apiKey: 'sk-thisKeyDoesNotExist0000000000' }).models());
    assert.ok(wrong instanceof AuthenticationError);
    assert.equal(wrong.code, 'invalid_api_key');
    assert.equal(wrong.firstCheck, 'key');
    assert.notEqual(wrong.requestId, null);
    const none = await rejection(client({ apiKey: undefined }).chat(hello()));
    assert.ok(none instanceof AuthenticationError);
    assert.equal(none.code, 'missing_api_key');
    const billing = await rejection(client({ apiKey: 'sk-thisKeyDoesNotExist0000000000' }).balance());
    assert.ok(billing instanceof AuthenticationError);
  });

  it('403: a disabled key, a model the key may not use, an account that cannot pay', async () => {
    const { secret: disabled } = await createKey(admin, { account: 'local', name: 'client-disabled' });
    await admin.setKeyStatus((await keyNamed(admin, 'client-disabled')).id, 'disabled');
    const off = await rejection(client({ apiKey: disabled }).chat(hello()));
    assert.ok(off instanceof PermissionDeniedError);
    assert.equal(off.code, 'key_disabled');
    assert.equal(off.firstCheck, 'permission');

    const { secret: narrow } = await createKey(admin, { account: 'local', name: 'client-narrow', models: ['another-model'] });
    const refused = await rejection(drain(client({ apiKey: narrow }).chatStream(hello())));
    assert.ok(refused instanceof PermissionDeniedError);
    assert.equal(refused.code, 'model_not_permitted');

    await admin.createAccount('client-poor', 0);
    const { secret: poor } = await createKey(admin, { account: 'client-poor', name: 'client-poor-key' });
    const broke = await rejection(client({ apiKey: poor }).chat(hello()));
    assert.ok(broke instanceof PermissionDeniedError);
    assert.equal(broke.code, 'insufficient_balance');
    assert.equal(broke.firstCheck, 'balance');
  });

  it('404: a model that does not exist (no address hint), and a path that does not (with one)', async () => {
    const model = await rejection(client().chat(hello('no-such-model')));
    assert.ok(model instanceof NotFoundError);
    assert.equal(model.code, 'model_not_found');
    assert.equal(model.firstCheck, 'model');
    assert.equal(model.hint, null);

    const path = await rejection(client({ baseUrl: `${gw.url}/v1/v1` }).models());
    assert.ok(path instanceof NotFoundError);
    assert.equal(path.code, 'not_found');
    assert.equal(path.firstCheck, 'address');
    assert.ok(path.hint?.includes(`${gw.url}/v1`));

    // The status probe under a doubled /v1 lands on /v1/api/status: a wrong base address, not a missing feature.
    const status = await client({ baseUrl: `${gw.url}/v1/v1` }).status();
    assert.equal(status.ok, false);
    assert.equal((status.body as { error: { code: string } }).error.code, 'not_found');
  });

  it('never logs the key', () => {
    assert.ok(logs.length > 5);
    for (const info of logs) assert.equal(JSON.stringify(info).includes(key), false);
  });
});

// Every kind of model (contract 1.4) through the gateway, with the official openai SDK as an unchanged
// client: completions (suffix, stream, echo, stop), embeddings (float, base64), images (url, b64_json),
// on the offline echo models and on an openai channel to the fake upstream; each charged exactly, each
// refused at the wrong endpoint, and /v1 paths the gateway lacks named as such.
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError, NotFoundError, PermissionDeniedError } from 'openai';
import { createKey, ECHO_IMAGE_PRICE } from '../../../src/gateway/admin.ts';
import { costOf } from '../../../src/gateway/accounts/money.ts';
import { echoVector } from '../../../src/gateway/providers/echo/embedding.ts';
import { FAKE_IMAGE_B64, FAKE_PROMPT_TOKENS, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { newChannel } from '../../support/channels.ts';
import { assertError } from '../../support/answer.ts';
import { call, logOfRequest, useGatewayWithUpstream, type Started } from './helpers.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('completions, embeddings and images through the gateway', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'up', baseUrl: upstream.url, models: { 'up-complete': 'up-complete', 'up-embed': 'text-embedding-3-small', 'up-image': 'dall-e-3' } }));
    await admin.setModel({ name: 'up-complete', kind: 'completion', inputPrice: 1_000_000, outputPrice: 2_000_000, imagePrice: null, contextLength: null, toolCalling: null });
    await admin.setModel({ name: 'up-embed', kind: 'embedding', inputPrice: 100_000, outputPrice: 0, imagePrice: null, contextLength: null, toolCalling: null });
    await admin.setModel({ name: 'up-image', kind: 'image', inputPrice: 0, outputPrice: 0, imagePrice: 80_000, imagePrices: { '1024x1792': 120_000, '1024x1792,hd': 160_000 }, contextLength: null, toolCalling: null });
  });
  let t: Started;
  let upstream: FakeUpstream;
  let sdk: OpenAI;
  before(() => ({ t, upstream, openai: sdk } = suite));

  const logOf = (requestId: string | null) => logOfRequest(t.admin(), requestId);

  describe('POST /v1/completions', () => {
    it('echo: the prompt and the suffix (fill-in-the-middle), exact usage, charged at the model price', async () => {
      const { data: answer, response } = await sdk.completions.create({ model: 'echo-completion', prompt: 'def add(a, b):', suffix: 'return total' }).withResponse();
      assert.equal(answer.object, 'text_completion');
      assert.equal(answer.model, 'echo-completion');
      assert.equal(answer.choices[0]!.text, 'You said: def add(a, b): then return total');
      assert.equal(answer.choices[0]!.finish_reason, 'stop');
      const charged = costOf(5, 8, 2_000_000, 8_000_000);
      // The cost told as an upstream's answer tells it: usage.cost in USD, and the header.
      assert.deepEqual(answer.usage, { prompt_tokens: 5, completion_tokens: 8, total_tokens: 13, cost: charged / 1e6 });
      assert.equal(response.headers.get('x-gateway-cost'), String(charged / 1e6));
      const log = await logOf(response.headers.get('x-request-id'));
      assert.deepEqual([log.path, log.model, log.status, log.promptTokens, log.completionTokens], ['/v1/completions', 'echo-completion', 200, 5, 8]);
      assert.equal(log.cost, charged);
    });

    it('echo: streams text chunks, honours max_tokens (length), stop, echo and n', async () => {
      const stream = await sdk.completions.create({ model: 'echo-completion', prompt: 'one two three four', stream: true, stream_options: { include_usage: true }, max_tokens: 3 });
      const texts: string[] = [];
      let usage: OpenAI.CompletionUsage | undefined;
      let finish: string | null = null;
      for await (const chunk of stream) {
        if (chunk.usage) usage = chunk.usage;
        for (const c of chunk.choices) {
          texts.push(c.text);
          finish = c.finish_reason ?? finish;
        }
      }
      assert.equal(texts.join(''), 'You said: one');
      assert.equal(finish, 'length');
      assert.equal(usage?.completion_tokens, 3);

      const stopped = await sdk.completions.create({ model: 'echo-completion', prompt: 'alpha beta. gamma', stop: '.', echo: true, n: 2 });
      assert.deepEqual(stopped.choices.map((c) => [c.index, c.text, c.finish_reason]), [
        [0, 'alpha beta. gammaYou said: alpha beta', 'stop'],
        [1, 'alpha beta. gammaYou said: alpha beta', 'stop'],
      ]);
    });

    it('openai channel: sent to the upstream /v1/completions with its model name; usage from the upstream', async () => {
      upstream.behaviour = { pieces: ['    return', ' a + b'] };
      const answer = await sdk.completions.create({ model: 'up-complete', prompt: 'def add(a, b):\n', suffix: '\n', max_tokens: 20 });
      assert.equal(answer.choices[0]!.text, '    return a + b');
      assert.equal(answer.model, 'up-complete');
      const sent = upstream.requests.at(-1)!;
      assert.equal(sent.path, '/v1/completions');
      assert.deepEqual(sent.body, { model: 'up-complete', prompt: 'def add(a, b):\n', suffix: '\n', max_tokens: 20 });
      // usage.cost: the charge in USD (cost.test.ts), 11 x $1 + 2 x $2 per million.
      assert.deepEqual(answer.usage, { prompt_tokens: FAKE_PROMPT_TOKENS, completion_tokens: 2, total_tokens: FAKE_PROMPT_TOKENS + 2, cost: 0.000015 });

      upstream.behaviour = { pieces: ['a', 'b', 'c'] };
      let text = '';
      for await (const chunk of await sdk.completions.create({ model: 'up-complete', prompt: 'x', stream: true })) text += chunk.choices[0]?.text ?? '';
      assert.equal(text, 'abc');
      assert.deepEqual(upstream.requests.at(-1)!.body.stream_options, { include_usage: true });
    });
  });

  describe('POST /v1/embeddings', () => {
    it('echo: deterministic unit vectors of the asked dimension, as floats or base64 float32; billed on input', async () => {
      const { data: floats, response } = await sdk.embeddings.create({ model: 'echo-embedding', input: ['hello world', 'hello world', 'other text'], dimensions: 12, encoding_format: 'float' }).withResponse();
      assert.equal(floats.data.length, 3);
      const [a, b, c] = floats.data.map((d) => d.embedding);
      assert.equal(a!.length, 12);
      assert.deepEqual(a, b, 'the same text, the same vector');
      assert.notDeepEqual(a, c);
      assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-6, 'unit length');
      assert.deepEqual(a, Array.from(echoVector('hello world', 12)));
      assert.deepEqual(floats.usage, { prompt_tokens: 6, total_tokens: 6 });
      const log = await logOf(response.headers.get('x-request-id'));
      assert.deepEqual([log.path, log.promptTokens, log.completionTokens, log.cost], ['/v1/embeddings', 6, 0, costOf(6, 0, 20_000, 0)]);
      assert.equal(response.headers.get('x-gateway-cost'), String(costOf(6, 0, 20_000, 0) / 1e6), 'the charge in the header (an embeddings answer has no place for it)');

      // The SDK asks for base64 by default and decodes it: the same numbers come out.
      const decoded = await sdk.embeddings.create({ model: 'echo-embedding', input: 'hello world', dimensions: 12 });
      assert.deepEqual(decoded.data[0]!.embedding, a);
      const raw = await call(t.gw, 'POST', '/v1/embeddings', { key: t.key, body: { model: 'echo-embedding', input: [[1, 2, 3]], encoding_format: 'base64' } });
      assert.equal(typeof raw.json.data[0].embedding, 'string');
      assert.equal(Buffer.from(raw.json.data[0].embedding, 'base64').length, 256 * 4, 'the default dimension, as float32');
      assert.equal(raw.json.usage.prompt_tokens, 3, 'a token array counts its tokens');
    });

    it('openai channel: the upstream answer and usage; charged on input tokens', async () => {
      const { data: answer, response } = await sdk.embeddings.create({ model: 'up-embed', input: ['a', 'b'], encoding_format: 'float' }).withResponse();
      assert.deepEqual(answer.data.map((d) => d.embedding), [[0.25, -0.5, 0.75], [0.25, -0.5, 0.75]]);
      assert.equal(upstream.requests.at(-1)!.path, '/v1/embeddings');
      assert.equal(upstream.requests.at(-1)!.body.model, 'text-embedding-3-small');
      const log = await logOf(response.headers.get('x-request-id'));
      assert.equal(log.cost, costOf(FAKE_PROMPT_TOKENS, 0, 100_000, 0));
    });

    it('openai channel: vectors in the encoding the client asked for, whatever the upstream answered (the SDK asks base64 and decodes blindly)', async () => {
      // The upstream answers floats to a base64 request (it ignores encoding_format): the SDK's default call still gets the numbers.
      const decoded = await sdk.embeddings.create({ model: 'up-embed', input: 'a' });
      assert.equal(upstream.requests.at(-1)!.body.encoding_format, 'base64', 'asked of the upstream as the client asked');
      assert.deepEqual(Array.from(decoded.data[0]!.embedding), [0.25, -0.5, 0.75]);
      const asBase64 = await call(t.gw, 'POST', '/v1/embeddings', { key: t.key, body: { model: 'up-embed', input: 'a', encoding_format: 'base64' } });
      assert.equal(asBase64.json.data[0].embedding, Buffer.from(Float32Array.from([0.25, -0.5, 0.75]).buffer).toString('base64'));
      assert.equal(asBase64.json.model, 'up-embed', 'the platform model name');
      // And the other way: floats asked (or nothing, the API's default), base64 answered.
      upstream.behaviour = { embeddingsAs: 'base64' };
      for (const body of [{ model: 'up-embed', input: 'a', encoding_format: 'float' }, { model: 'up-embed', input: 'a' }]) {
        const floats = await call(t.gw, 'POST', '/v1/embeddings', { key: t.key, body });
        assert.deepEqual(floats.json.data[0].embedding, [0.25, -0.5, 0.75], JSON.stringify(body));
      }
      const passed = await sdk.embeddings.create({ model: 'up-embed', input: 'a' });
      assert.deepEqual(Array.from(passed.data[0]!.embedding), [0.25, -0.5, 0.75], 'base64 asked and answered: passed on as it came');
    });
  });

  describe('POST /v1/images/generations', () => {
    it('echo: n valid PNGs of the asked size, as base64 or data URLs; billed per image', async () => {
      const { data: answer, response } = await sdk.images.generate({ model: 'echo-image', prompt: 'a red square', n: 2, size: '64x32', response_format: 'b64_json' }).withResponse();
      assert.equal(answer.data!.length, 2);
      for (const image of answer.data!) {
        const png = Buffer.from(image.b64_json!, 'base64');
        assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
        assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [64, 32], 'IHDR width and height');
      }
      const log = await logOf(response.headers.get('x-request-id'));
      assert.deepEqual([log.path, log.status, log.cost], ['/v1/images/generations', 200, 2 * ECHO_IMAGE_PRICE]);
      assert.equal(response.headers.get('x-gateway-cost'), String((2 * ECHO_IMAGE_PRICE) / 1e6));

      const url = await sdk.images.generate({ model: 'echo-image', prompt: 'x', size: '8x8' });
      assert.match(url.data![0]!.url!, /^data:image\/png;base64,iVBORw0KGgo/);
      const tooBig = await call(t.gw, 'POST', '/v1/images/generations', { key: t.key, body: { model: 'echo-image', prompt: 'x', size: '4096x4096' } });
      assertError(tooBig, 400, 'invalid_request');
    });

    it('openai channel: the upstream images, charged per image delivered', async () => {
      const { data: answer, response } = await sdk.images.generate({ model: 'up-image', prompt: 'p', n: 3 }).withResponse();
      assert.deepEqual(answer.data!.map((d) => d.b64_json), [FAKE_IMAGE_B64, FAKE_IMAGE_B64, FAKE_IMAGE_B64]);
      assert.equal(upstream.requests.at(-1)!.path, '/v1/images/generations');
      assert.equal(upstream.requests.at(-1)!.body.model, 'dall-e-3');
      assert.equal((await logOf(response.headers.get('x-request-id'))).cost, 3 * 80_000);
    });

    it('priced by size and quality where the operator set it: reserved and charged at that price', async () => {
      const tall = await sdk.images.generate({ model: 'up-image', prompt: 'p', n: 2, size: '1024x1792', quality: 'hd' }).withResponse();
      assert.equal((await logOf(tall.response.headers.get('x-request-id'))).cost, 2 * 160_000);
      const standard = await sdk.images.generate({ model: 'up-image', prompt: 'p', size: '1024x1792', quality: 'standard' }).withResponse();
      assert.equal((await logOf(standard.response.headers.get('x-request-id'))).cost, 120_000);
      // In any case, as the prices are kept: an upstream that takes "HD" draws an hd image.
      const shouted = await call(t.gw, 'POST', '/v1/images/generations', { key: t.key, body: { model: 'up-image', prompt: 'p', size: '1024x1792', quality: 'HD' } });
      assert.equal(shouted.status, 200, shouted.text);
      assert.equal((await logOf(shouted.headers.get('x-request-id'))).cost, 160_000);

      const admin = t.admin();
      await admin.createAccount('one-tall-image', 160_000);
      const { secret } = await createKey(admin, { account: 'one-tall-image', name: 'one-tall-image-key' });
      const poor = new OpenAI({ apiKey: secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
      const priced = (await poor.models.list()).data.find((m) => m.id === 'up-image') as unknown as { pricing: unknown };
      assert.deepEqual(priced.pricing, { per_image_usd: 0.08, per_image_usd_by_variant: { '1024x1792': 0.12, '1024x1792,hd': 0.16 } });
      await assert.rejects(
        poor.images.generate({ model: 'up-image', prompt: 'p', n: 2, size: '1024x1792' }),
        (e: unknown) => e instanceof PermissionDeniedError && e.code === 'insufficient_balance',
        'two tall images cost 0.24 (two default ones would cost 0.16): the reservation is at the price of the size asked for',
      );
      const last = await poor.images.generate({ model: 'up-image', prompt: 'p', size: '1024x1792', quality: 'hd' }).withResponse();
      assert.equal((await logOf(last.response.headers.get('x-request-id'))).cost, 160_000);
      assert.equal((await admin.getAccount('one-tall-image'))!.balance, 0, 'the balance the log rows were written with');
    });

    it('reserves n times the price: an account that cannot pay for all n images is refused, not overdrawn', async () => {
      const admin = t.admin();
      await admin.createAccount('two-images', 2 * ECHO_IMAGE_PRICE);
      const { secret } = await createKey(admin, { account: 'two-images', name: 'two-images-key' });
      const poor = new OpenAI({ apiKey: secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
      await assert.rejects(poor.images.generate({ model: 'echo-image', prompt: 'p', n: 3 }), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'insufficient_balance');
      const two = await poor.images.generate({ model: 'echo-image', prompt: 'p', n: 2, size: '8x8' });
      assert.equal(two.data!.length, 2);
      await assert.rejects(poor.images.generate({ model: 'echo-image', prompt: 'p', size: '8x8' }), (e: unknown) => e instanceof PermissionDeniedError);
    });
  });

  it('a model at the wrong endpoint: 400 wrong_endpoint naming the right one', async () => {
    const cases = [
      ['/v1/chat/completions', { model: 'echo-embedding', messages: [{ role: 'user', content: 'x' }] }, '/v1/embeddings'],
      ['/v1/completions', { model: 'echo', prompt: 'x' }, '/v1/chat/completions'],
      ['/v1/embeddings', { model: 'echo-image', input: 'x' }, '/v1/images/generations'],
      ['/v1/images/generations', { model: 'echo-completion', prompt: 'x' }, '/v1/completions'],
    ] as const;
    for (const [path, body, right] of cases) {
      const answer = await call(t.gw, 'POST', path, { key: t.key, body });
      assertError(answer, 400, 'wrong_endpoint');
      assert.ok(answer.json.error.message.includes(`POST ${right}`), answer.json.error.message);
    }
    await assert.rejects(sdk.embeddings.create({ model: 'echo', input: 'x' }), (e: unknown) => e instanceof BadRequestError && e.code === 'wrong_endpoint');
    // Counting tokens is for chat models too, and the message's article follows the kind.
    const counted = await call(t.gw, 'POST', '/v1/messages/count_tokens', { key: t.key, body: { model: 'echo-embedding', messages: [{ role: 'user', content: 'x' }] } });
    assert.equal(counted.status, 400);
    assert.equal(counted.json.error.code, 'wrong_endpoint');
    assert.ok(counted.json.error.message.includes('"echo-embedding" is an embedding model: send it to POST /v1/embeddings'), counted.json.error.message);
  });

  it('bodies that do not fit the endpoint: 400 invalid_request naming the field', async () => {
    for (const [path, body, field] of [
      ['/v1/completions', { model: 'echo-completion' }, 'prompt'],
      ['/v1/embeddings', { model: 'echo-embedding', input: [] }, 'input'],
      ['/v1/embeddings', { model: 'echo-embedding', input: 'x', encoding_format: 'int8' }, 'encoding_format'],
      ['/v1/images/generations', { model: 'echo-image', prompt: 'x', size: 'huge' }, 'size'],
      ['/v1/images/generations', { model: 'echo-image', prompt: 'x', n: 11 }, 'n'],
    ] as const) {
      const answer = await call(t.gw, 'POST', path, { key: t.key, body });
      assertError(answer, 400, 'invalid_request');
      assert.ok(answer.json.error.message.includes(field), answer.json.error.message);
    }
  });

  it('/v1 paths the gateway does not serve are named as such; a doubled or missing /v1 still points at the base address', async () => {
    for (const path of ['/v1/audio/speech', '/v1/files', '/v1/batches', '/v1/fine_tuning/jobs', '/v1/moderations']) {
      const answer = await call(t.gw, 'POST', path, { key: t.key, body: {} });
      assertError(answer, 404, 'endpoint_not_supported');
      assert.ok(answer.json.error.message.includes(`${path} is not supported by this gateway`), answer.json.error.message);
    }
    await assert.rejects(sdk.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x' }), (e: unknown) => e instanceof NotFoundError && e.code === 'endpoint_not_supported');
    for (const path of ['/v1/v1/embeddings', '/embeddings', '/images/generations', '/v1/api/status', '/v1/v1']) {
      assertError(await call(t.gw, 'POST', path, { key: t.key, body: {} }), 404, 'not_found');
    }
  });
});

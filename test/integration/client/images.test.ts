// The client's images (POST /v1/images/generations) against the REAL bundled gateway (its echo image model, charged
// per image), and against a loopback server standing in for other gateways and providers: one that refuses
// `response_format` (the GPT image models), one that answers with URLs to fetch (DALL·E's default), and broken ones.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { InvalidResponseError, MAX_IMAGE_BYTES } from '../../../src/client/index.ts';
import { createKey } from '../../../src/gateway/admin.ts';
import { solidPng } from '../../../src/gateway/providers/echo/image.ts';
import { newChannel } from '../../support/channels.ts';
import { startFakeUpstream } from '../../support/fakeUpstream.ts';
import { listenOnLoopback, type Listening } from '../../support/loopback.ts';
import { startTestGateway, type Started } from '../gateway/helpers.ts';
import { rejection, useClients } from './clients.ts';

/** A PNG's width and height, from its header. */
function pngSize(bytes: Buffer): [number, number] {
  assert.equal(bytes.toString('latin1', 1, 4), 'PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('client: images', () => {
  describe('against the bundled gateway', () => {
    let started: Started;
    const { client } = useClients(() => ({ baseUrl: started.gw.url, apiKey: started.key }));
    before(async () => {
      started = await startTestGateway();
    });
    after(async () => {
      await started?.close();
    });

    it('draws n images of the size asked, as PNG bytes, and says what they cost', async () => {
      const admin = started.admin();
      await admin.createAccount('client-images', 10_000_000);
      const { secret } = await createKey(admin, { account: 'client-images', name: 'client-images-key' });
      const c = client({ apiKey: secret });
      const out = await c.images({ model: 'echo-image', prompt: 'a lighthouse at dusk', size: '320x200', n: 2 });
      assert.equal(out.images.length, 2);
      for (const image of out.images) {
        assert.equal(image.mime, 'image/png');
        assert.equal(image.extension, 'png');
        assert.deepEqual(pngSize(image.bytes), [320, 200]);
      }
      assert.notDeepEqual(out.images[0]!.bytes, out.images[1]!.bytes, 'two images, not one twice');
      const balance = await c.balance();
      assert.ok(out.costUsd! > 0 && Math.abs(out.costUsd! - balance.usedUsd!) < 1e-9, `the header's cost ${out.costUsd} is what was charged, ${balance.usedUsd}`);
    });

    it('through the gateway to an upstream that refuses response_format: asked again, one image charged', async () => {
      const upstream = await startFakeUpstream((request) => (request.body?.response_format ? { status: 400, errorMessage: "Unknown parameter: 'response_format'." } : {}));
      try {
        const admin = started.admin();
        await admin.addChannel(newChannel({ name: 'gpt-image-upstream', baseUrl: upstream.url, models: { 'gpt-image-1': 'gpt-image-1' } }));
        await admin.setModel({ name: 'gpt-image-1', kind: 'image', inputPrice: 0, outputPrice: 0, imagePrice: 40_000, contextLength: null, toolCalling: null });
        await admin.createAccount('client-gpt-image', 1_000_000);
        const { secret } = await createKey(admin, { account: 'client-gpt-image', name: 'client-gpt-image-key' });
        const c = client({ apiKey: secret });
        const out = await c.images({ model: 'gpt-image-1', prompt: 'a kite' });
        assert.equal(out.images.length, 1);
        assert.deepEqual(upstream.requests.map((r) => r.body.response_format ?? null), ['b64_json', null]);
        assert.equal((await c.balance()).usedUsd, 0.04, 'the refused attempt is not charged');
      } finally {
        await upstream.close();
      }
    });

    it('a chat model, a size the model refuses, and an empty prompt are the typed errors', async () => {
      const wrongKind = await rejection(client().images({ model: 'echo', prompt: 'a cat' }));
      assert.equal(wrongKind.status, 400);
      assert.match(wrongKind.message, /chat/i);
      const tooBig = await rejection(client().images({ model: 'echo-image', prompt: 'a cat', size: '4096x4096' }));
      assert.equal(tooBig.status, 400);
      assert.match(tooBig.gatewayMessage ?? '', /1024x1024/);
      const empty = await rejection(client().images({ model: 'echo-image', prompt: '' }));
      assert.equal(empty.status, null, 'refused before sending');
      assert.match(empty.message, /prompt/);
    });
  });

  describe('against other gateways and providers', () => {
    const png = solidPng(64, 48, [200, 10, 10]);
    const requests: Array<{ url: string; headers: IncomingHttpHeaders; body: Record<string, unknown> | null }> = [];
    /** What the server answers to POST /v1/images/generations, by the prompt. */
    let answer: (body: Record<string, unknown>) => { status: number; json: unknown };
    let server: Listening;
    const { client } = useClients(() => ({ baseUrl: server.origin, apiKey: 'sk-images-test-key-000000000000' }));

    before(async () => {
      server = await listenOnLoopback(createServer((req, res) => {
        const parts: Buffer[] = [];
        req.on('data', (part: Buffer) => parts.push(part));
        req.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          const body = text === '' ? null : (JSON.parse(text) as Record<string, unknown>);
          requests.push({ url: req.url ?? '', headers: req.headers, body });
          if (req.url === '/files/red.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
          if (req.url === '/files/gone.png') return void res.writeHead(404).end('expired');
          if (req.url === '/files/huge.png') {
            // Past the cap while it is still arriving: the client stops reading.
            res.writeHead(200, { 'content-type': 'image/png' });
            const block = Buffer.alloc(1024 * 1024);
            let sent = 0;
            const more = () => {
              while (sent <= MAX_IMAGE_BYTES / block.length + 1 && !res.destroyed) {
                sent++;
                if (!res.write(block)) return void res.once('drain', more);
              }
              res.end();
            };
            return more();
          }
          const { status, json } = answer(body ?? {});
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        });
      }));
    });
    after(async () => {
      await server?.close();
    });
    beforeEach(() => {
      requests.length = 0;
    });

    it('asks again without response_format when the model refuses it (GPT image models)', async () => {
      answer = (body) =>
        'response_format' in body
          ? { status: 400, json: { error: { message: "Unknown parameter: 'response_format'.", type: 'invalid_request_error', param: 'response_format', code: 'unknown_parameter' } } }
          : { status: 200, json: { created: 1, data: [{ b64_json: png.toString('base64'), revised_prompt: 'a red rectangle' }] } };
      const out = await client().images({ model: 'gpt-image-1', prompt: 'a red square' });
      assert.deepEqual(requests.map((r) => r.body?.response_format ?? null), ['b64_json', null]);
      assert.deepEqual(out.images[0]!.bytes, png);
      assert.equal(out.images[0]!.revisedPrompt, 'a red rectangle');
    });

    it('fetches an image answered as a URL, without the API key', async () => {
      answer = () => ({ status: 200, json: { created: 1, data: [{ url: `${server.origin}/files/red.png` }] } });
      const out = await client().images({ model: 'dall-e-3', prompt: 'a red square' });
      assert.deepEqual(out.images[0]!.bytes, png);
      const fetched = requests.find((r) => r.url === '/files/red.png');
      assert.ok(fetched, 'the image was fetched');
      assert.equal(fetched.headers.authorization, undefined, 'the key never goes to the image host');
      assert.equal(requests.find((r) => r.url === '/v1/images/generations')?.headers.authorization, 'Bearer sk-images-test-key-000000000000');
    });

    it('reads an image answered as a data: URL', async () => {
      answer = () => ({ status: 200, json: { data: [{ url: `data:image/png;base64,${png.toString('base64')}` }] } });
      assert.deepEqual((await client().images({ model: 'm', prompt: 'p' })).images[0]!.bytes, png);
    });

    it('refuses what is not an image, an empty answer, an expired URL and an image past the cap', async () => {
      answer = () => ({ status: 200, json: { data: [{ b64_json: Buffer.from('<html>not an image</html>').toString('base64') }] } });
      const notImage = await rejection(client().images({ model: 'm', prompt: 'p' }));
      assert.ok(notImage instanceof InvalidResponseError);
      assert.match(notImage.message, /not a PNG, JPEG, WebP or GIF/);

      answer = () => ({ status: 200, json: { data: [] } });
      assert.match((await rejection(client().images({ model: 'm', prompt: 'p' }))).message, /holds no image/);

      answer = () => ({ status: 200, json: { data: [{ revised_prompt: 'x' }] } });
      assert.match((await rejection(client().images({ model: 'm', prompt: 'p' }))).message, /neither base64 nor an http\(s\) URL/);

      answer = () => ({ status: 200, json: { data: [{ url: `${server.origin}/files/gone.png` }] } });
      assert.match((await rejection(client().images({ model: 'm', prompt: 'p' }))).message, /could not be fetched \(HTTP 404\)/);

      answer = () => ({ status: 200, json: { data: [{ url: `${server.origin}/files/huge.png` }] } });
      assert.match((await rejection(client().images({ model: 'm', prompt: 'p' }))).message, /sent more than 48 MB/);
    });

    it("a 400 that is not about response_format is the gateway's error, not asked again", async () => {
      answer = () => ({ status: 400, json: { error: { message: 'Your prompt was rejected by the safety system.', type: 'invalid_request_error', code: 'content_policy_violation' } } });
      const refused = await rejection(client().images({ model: 'm', prompt: 'p' }));
      assert.equal(refused.status, 400);
      assert.match(refused.message + (refused.gatewayMessage ?? ''), /safety system/);
      assert.equal(requests.length, 1);
    });

    it("sends the user's parameters for the model under the request's own fields", async () => {
      answer = () => ({ status: 200, json: { data: [{ b64_json: png.toString('base64') }] } });
      const asked: string[] = [];
      await client({ bodyDefaults: (model, endpoint) => (asked.push(endpoint), model === 'dall-e-3' ? { quality: 'hd', style: 'natural', size: '1792x1024' } : {}) }).images({ model: 'dall-e-3', prompt: 'p', size: '1024x1024' });
      assert.deepEqual(asked, ['image'], 'the caller is told the request is for images');
      assert.deepEqual({ ...requests[0]!.body }, { model: 'dall-e-3', prompt: 'p', quality: 'hd', style: 'natural', size: '1024x1024', response_format: 'b64_json' });
    });
  });
});

// Every status and error code of the contract (section 7) over real HTTP, with X-Request-Id and the id in each message.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { INVALID_TOKEN_NOTICE } from '../../../src/contract/index.ts';
import { createKey, keyNamed } from '../../../src/gateway/admin.ts';
import { startFakeUpstream } from '../../support/fakeUpstream.ts';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatBody, startTestGateway, waitForLog } from './helpers.ts';
import { assertError } from '../../support/answer.ts';
import type { Started } from './helpers.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';

/** Sends raw bytes and returns the raw HTTP answer. */
function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('gateway errors (contract section 7)', () => {
  let t: Started;
  let upstream: FakeUpstream;

  before(async () => {
    // Every unkeyed request here is looked up in the log: no sampling (requestLogGrowth.test.ts tests it).
    t = await startTestGateway({ maxBodyBytes: 64 * 1024, unkeyedLogSample: 1_000_000 });
    upstream = await startFakeUpstream({});
    const admin = t.admin();
    await addChannelPricedFree(admin, newChannel({ name: 'slow', baseUrl: upstream.url, apiKey: 'up-key', models: { slow: 'slow-upstream' }, timeoutMs: 30_000 }));
  });
  after(async () => {
    await t.close();
    await upstream.close();
  });

  describe('401 authentication', () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['no Authorization header', {}, 'missing_api_key'],
      ['a scheme other than Bearer', { authorization: 'Basic dXNlcjpwYXNz' }, 'invalid_auth_header'],
      ['a key without a scheme', { authorization: 'sk-abcdefabcdefabcdefabcdefabcdefabcdef' }, 'invalid_auth_header'],
      ['an empty key', { authorization: 'Bearer' }, 'missing_api_key'],
      ['an unknown key', { authorization: 'Bearer sk-thisKeyDoesNotExist00000000000000000' }, 'invalid_api_key'],
    ];
    for (const [name, headers, code] of cases) {
      it(`${name} -> 401 ${code}`, async () => {
        for (const path of ['/v1/models', '/v1/dashboard/billing/subscription']) {
          const answer = await call(t.gw, 'GET', path, { headers });
          assertError(answer, 401, code);
          assert.ok(answer.json.error.message.startsWith(INVALID_TOKEN_NOTICE));
        }
        const chat = await call(t.gw, 'POST', '/v1/chat/completions', { headers, body: chatBody() });
        assertError(chat, 401, code);
      });
    }

    it('a real key with whitespace around it -> 401 api_key_whitespace', async () => {
      const answer = await call(t.gw, 'GET', '/v1/models', { headers: { authorization: `Bearer  ${t.key}` } });
      assertError(answer, 401, 'api_key_whitespace');
      assert.ok(answer.json.error.message.startsWith(INVALID_TOKEN_NOTICE));
      const tab = await raw(t.gw.url, `GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \t${t.key}\r\nConnection: close\r\n\r\n`);
      assert.match(tab, /^HTTP\/1\.1 401/);
      assert.match(tab, /"code":"api_key_whitespace"/);
    });

    it('the same key without whitespace works', async () => {
      assert.equal((await call(t.gw, 'GET', '/v1/models', { key: t.key })).status, 200);
    });
  });

  describe('403 refused', () => {
    it('a disabled key -> key_disabled, and enabling it again works', async () => {
      const admin = t.admin();
      const { secret } = await createKey(admin, { account: 'local', name: 'to-disable' });
      assert.equal((await call(t.gw, 'GET', '/v1/models', { key: secret })).status, 200);
      await admin.setKeyStatus((await keyNamed(admin, 'to-disable')).id, 'disabled');
      assertError(await call(t.gw, 'GET', '/v1/models', { key: secret }), 403, 'key_disabled');
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() }), 403, 'key_disabled');
      await admin.setKeyStatus((await keyNamed(admin, 'to-disable')).id, 'enabled');
      assert.equal((await call(t.gw, 'GET', '/v1/models', { key: secret })).status, 200);
    });

    it('an expired key -> key_expired', async () => {
      const { secret } = await createKey(t.admin(), { account: 'local', name: 'expired', expiresAt: Date.now() - 1000 });
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() }), 403, 'key_expired');
    });

    it('a model the key may not use -> model_not_permitted', async () => {
      const { secret } = await createKey(t.admin(), { account: 'local', name: 'only-slow', models: ['slow'] });
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('echo') }), 403, 'model_not_permitted');
    });

    it('an account that cannot pay -> insufficient_balance', async () => {
      const admin = t.admin();
      await admin.createAccount('poor', 0);
      const { secret } = await createKey(admin, { account: 'poor', name: 'poor-key' });
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() }), 403, 'insufficient_balance');
    });
  });

  describe('client strings are bounded (hardening item 1)', () => {
    it('a huge model name is refused with 400 and never echoed or stored', async () => {
      const huge = 'm'.repeat(50_000); // under this suite's 64 KiB body limit
      for (const path of ['/v1/chat/completions', '/v1/embeddings']) {
        const answer = await call(t.gw, 'POST', path, { key: t.key, body: { model: huge, messages: [{ role: 'user', content: 'x' }], input: 'x' } });
        assertError(answer, 400, 'invalid_request');
        assert.ok(answer.text.length < 1000, `the answer stays small: ${answer.text.length} bytes`);
        const log = await waitForLog(t.admin(), (l) => l.requestId === answer.headers.get('x-request-id'));
        assert.equal(log?.model, null, 'the name is not logged');
      }
    });

    it('a model name with a control character is refused with 400 naming the reason, on every endpoint, and never logged', async () => {
      for (const [path, body] of [
        ['/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }] }], ['/v1/completions', { prompt: 'x' }], ['/v1/embeddings', { input: 'x' }],
        ['/v1/images/generations', { prompt: 'x' }], ['/v1/messages', { max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }], ['/v1/responses', { input: 'x' }],
      ] as const) {
        for (const model of ['a\u0000b', 'tab\there', 'del\u007f']) {
          const answer = await call(t.gw, 'POST', path, { key: t.key, body: { model, ...body } });
          assert.equal(answer.status, 400, `${path} ${JSON.stringify(model)}: ${answer.text}`);
          assert.match(answer.text, /model: must not contain control characters/);
          const log = await waitForLog(t.admin(), (l) => l.requestId === answer.headers.get('x-request-id'));
          assert.equal(log?.model, null, 'the name is not logged');
        }
      }
    });

    it('a long path is cut, with a marker, in the message and the log row', async () => {
      const path = `/v1/${'p'.repeat(8_000)}`;
      const answer = await call(t.gw, 'GET', path, { key: t.key });
      assertError(answer, 404, 'endpoint_not_supported');
      assert.ok(answer.text.length < 2000, `the answer stays small: ${answer.text.length} bytes`);
      assert.ok(answer.json.error.message.includes('…(8004 characters)'));
      const log = await waitForLog(t.admin(), (l) => l.requestId === answer.headers.get('x-request-id'));
      assert.ok(log && log.path.length < 300, `logged path: ${log?.path.length} characters`);
    });

    it('a long User-Agent is cut in the log row to 256 characters (contract 4.10), the marker saying how long it was among them', async () => {
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody(), headers: { 'user-agent': 'agent/'.padEnd(5000, 'x') } });
      assert.equal(answer.status, 200);
      const log = await waitForLog(t.admin(), (l) => l.requestId === answer.headers.get('x-request-id'));
      assert.ok(log?.userAgent?.endsWith('…(5000 characters)'), log?.userAgent ?? 'no user agent logged');
      assert.equal(log?.userAgent?.length, 256, 'the marker within the bound');
    });
  });

  describe('404 not found', () => {
    it('unknown paths -> not_found, as JSON', async () => {
      for (const [method, path] of [['GET', '/v1'], ['GET', '/nope'], ['GET', '/chat/completions'], ['POST', '/models'], ['DELETE', '/v1/v1/models']] as const) {
        const answer = await call(t.gw, method, path, { key: t.key });
        assertError(answer, 404, 'not_found');
        assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
      }
    });

    it('a doubled slash (a base URL written with a trailing slash, and a client adding its own) is the path it means', async () => {
      const chat = await call(t.gw, 'POST', '/v1//chat/completions', { key: t.key, body: chatBody() });
      assert.equal(chat.status, 200, chat.text);
      assert.equal((await call(t.gw, 'GET', '//v1/models', { key: t.key })).status, 200);
      assert.equal((await call(t.gw, 'GET', '/v1//models/echo', { key: t.key })).json.id, 'echo');
      const log = await waitForLog(t.admin(), (l) => l.requestId === chat.headers.get('x-request-id'));
      assert.equal(log?.path, '/v1/chat/completions', 'logged as the path served');
    });

    it('a known path with the wrong method -> 405 method_not_allowed with Allow', async () => {
      const cases = [
        ['POST', '/', 'GET, HEAD, OPTIONS'],
        ['GET', '/v1/chat/completions', 'POST, OPTIONS'],
        ['DELETE', '/v1/models', 'GET, HEAD, OPTIONS'],
        ['PUT', '/api/status', 'GET, HEAD, OPTIONS'],
      ] as const;
      for (const [method, path, allow] of cases) {
        const answer = await call(t.gw, method, path, { key: t.key });
        assertError(answer, 405, 'method_not_allowed');
        assert.equal(answer.headers.get('allow'), allow);
      }
    });

    it('an unknown model -> model_not_found, "model not found" in the message', async () => {
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('no-such-model') });
      assertError(answer, 404, 'model_not_found');
      assert.match(answer.json.error.message, /model not found/);
    });
  });

  describe('400 and 413 bad requests', () => {
    it('malformed JSON -> invalid_json', async () => {
      for (const body of ['{', '{"model": "echo",', 'not json', '']) {
        assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body }), 400, 'invalid_json');
      }
    });

    it('missing or wrongly typed fields -> invalid_request', async () => {
      const bodies = [
        {}, [], 42, 'null', { model: 'echo' }, { messages: [{ role: 'user', content: 'x' }] }, { model: 7, messages: [{ role: 'user', content: 'x' }] },
        { model: 'echo', messages: 'hello' }, { model: 'echo', messages: [] }, { model: 'echo', messages: [{ content: 'x' }] },
        { model: 'echo', messages: [{ role: 'user', content: 5 }] }, chatBody('echo', 'x', { stream: 'yes' }), chatBody('echo', 'x', { max_tokens: -1 }),
      ];
      for (const body of bodies) {
        const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: typeof body === 'string' ? body : JSON.stringify(body) });
        assertError(answer, 400, 'invalid_request');
      }
    });

    it('a body over the limit -> 413 request_too_large (declared length and chunked)', async () => {
      const huge = JSON.stringify(chatBody('echo', 'x'.repeat(200 * 1024)));
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: huge }), 413, 'request_too_large');
      const chunks = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(8192)));
          controller.close();
        },
      });
      const res = await fetch(`${t.gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${t.key}` }, body: chunks, duplex: 'half' } as RequestInit);
      const text = await res.text();
      assertError({ status: res.status, headers: res.headers, text, json: JSON.parse(text) }, 413, 'request_too_large');
    });

    it('garbage on the socket gets the contract 400 (request id in body and header) and the server keeps serving', async () => {
      const answer = await raw(t.gw.url, 'THIS IS NOT HTTP\r\n\r\n');
      const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const headers = new Headers(head.split('\r\n').slice(1).map((line) => line.split(/:\s*/, 2) as [string, string]));
      assertError({ status, headers, text: body, json: JSON.parse(body) }, 400, 'invalid_request');
      const after = await call(t.gw, 'GET', '/api/status');
      assert.equal(after.status, 200);
    });

    it('a URL too long is 414, a header block too large is 431: each with the contract body and a request id', async () => {
      const parse = (answer: string) => {
        const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
        const headers = new Headers(head.split('\r\n').slice(1).map((line) => line.split(/:\s*/, 2) as [string, string]));
        return { status, headers, text: body, json: JSON.parse(body) };
      };
      const long = parse(await raw(t.gw.url, `GET /v1/${'u'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
      assertError(long, 414, 'uri_too_long');
      // Over the 8 KiB the message names, though Node's parser would take it (its limit is the whole header block).
      const over = parse(await raw(t.gw.url, `GET /v1/${'u'.repeat(9_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
      assertError(over, 414, 'uri_too_long');
      const big = parse(await raw(t.gw.url, `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(20_000)}\r\n\r\n`));
      assertError(big, 431, 'headers_too_large');
      assert.equal((await call(t.gw, 'GET', '/api/status')).status, 200, 'and the server serves on');
      // Each has its log row, with the status sent and the request line as far as it came (the path cut, marked).
      for (const [answer, status, code] of [[long, 414, 'uri_too_long'], [over, 414, 'uri_too_long'], [big, 431, 'headers_too_large']] as const) {
        const id = answer.headers.get('x-request-id');
        const log = await waitForLog(t.admin(), (l) => l.requestId === id);
        assert.deepEqual([log?.status, log?.errorCode, log?.method, log?.keyId], [status, code, 'GET', null], `${status} ${id}`);
        assert.ok((log?.path.length ?? 0) < 300 && log?.path.startsWith('/v1/'), log?.path);
      }
    });

    it('a request target in absolute form (GET http://host/path) is served as its path', async () => {
      const answer = await raw(t.gw.url, `GET ${t.gw.url}/v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 200 /);
      assert.match(answer, /"object":"list"/);
      // Its dot segments are not resolved, as in the usual form: what a proxy in front filtered on is what is served.
      assert.match(await raw(t.gw.url, `GET ${t.gw.url}/v1/../api/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), /^HTTP\/1\.1 404 /);
      assert.match(await raw(t.gw.url, `GET /v1/../api/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), /^HTTP\/1\.1 404 /);
    });

    it('n outside 1..128, or not a whole number, is 400 on chat: it is reserved for, never sent up unpaid', async () => {
      for (const n of [0, 129, 1000, 1.5, 'two']) assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('echo', 'hi', { n }) }), 400, 'invalid_request');
    });

    it('an expectation the gateway does not know (Expect: other than 100-continue) is ignored: the request is served and logged', async () => {
      // Node alone answered a bare 417, with no error body, no request id and no log row.
      const body = JSON.stringify(chatBody());
      const answer = await raw(t.gw.url, `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\n`
        + `Expect: something-else\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      assert.match(answer, /^HTTP\/1\.1 200 /);
      const id = /\r\nx-request-id: (\S+)\r\n/i.exec(answer)?.[1];
      assert.ok(id, answer.slice(0, 300));
      assert.equal((await waitForLog(t.admin(), (l) => l.requestId === id))?.status, 200);
    });

    it('a client that hangs up while uploading is logged as a client abort (499), not an internal error', async () => {
      const lines: string[] = [];
      const own = await startTestGateway({ log: (line) => lines.push(line) });
      try {
        const { hostname, port } = new URL(own.gw.url);
        await new Promise<void>((resolve) => {
          const socket = connect(Number(port), hostname, () => {
            socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${own.key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"model":"echo",`);
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 100);
          });
        });
        const log = await waitForLog(own.admin(), (l) => l.errorCode === 'client_aborted');
        assert.ok(log, 'the abort is logged');
        assert.equal(log.status, 499);
        assert.ok(!lines.some((l) => /internal error/.test(l)), lines.join('\n'));
        assert.equal((await call(own.gw, 'GET', '/api/status')).status, 200);
      } finally {
        await own.close();
      }
    });

    it('odd headers do not break the server', async () => {
      const odd = await call(t.gw, 'GET', '/v1/models', { headers: { authorization: 'Bearer ' + 'A'.repeat(4000), 'x-weird': '\u00ff' } });
      assertError(odd, 401, 'invalid_api_key');
      const lower = await call(t.gw, 'GET', '/v1/models', { headers: { authorization: `bearer ${t.key}` } });
      assert.equal(lower.status, 200, 'the scheme is case-insensitive');
      assert.equal((await call(t.gw, 'GET', '/api/status')).status, 200);
    });
  });

  describe('429 limits', () => {
    it('over the key request rate -> rate_limited with Retry-After', async () => {
      const { secret } = await createKey(t.admin(), { account: 'local', name: 'rpm2', rpm: 2 });
      assert.equal((await call(t.gw, 'GET', '/v1/models', { key: secret })).status, 200);
      assert.equal((await call(t.gw, 'GET', '/v1/models', { key: secret })).status, 200);
      const limited = await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() });
      assertError(limited, 429, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    });

    it('over the key concurrency -> concurrency_limited with Retry-After, and free again afterwards', async () => {
      const { secret } = await createKey(t.admin(), { account: 'local', name: 'conc1', concurrency: 1 });
      upstream.behaviour = { hang: 'headers' };
      const before = upstream.requests.length;
      const controller = new AbortController();
      const first = fetch(`${t.gw.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody('slow')), signal: controller.signal,
      }).catch((error: unknown) => error);
      await upstream.received(before + 1);
      const second = await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('slow') });
      assertError(second, 429, 'concurrency_limited');
      assert.ok(Number(second.headers.get('retry-after')) >= 1);
      controller.abort();
      await first;
      upstream.behaviour = {};
      // The aborted request releases its slot once the gateway has seen the disconnect.
      let answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('slow') });
      for (let i = 0; i < 50 && answer.status === 429; i++) {
        await new Promise((r) => setTimeout(r, 20));
        answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('slow') });
      }
      assert.equal(answer.status, 200, answer.text);
    });

    it('an upstream 429 with no other channel -> upstream_rate_limited with Retry-After', async () => {
      upstream.behaviour = { status: 429, retryAfter: '7' };
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('slow') });
      upstream.behaviour = {};
      assertError(answer, 429, 'upstream_rate_limited');
      assert.equal(answer.headers.get('retry-after'), '7');
    });
  });

  describe('5xx', () => {
    it('an upstream 500 -> 502 upstream_error; no enabled channel -> 503 upstream_unavailable', async () => {
      upstream.behaviour = { status: 500 };
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('slow') }), 502, 'upstream_error');
      upstream.behaviour = {};
      const admin = t.admin();
      await admin.setChannelStatus('slow', 'disabled');
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('slow') }), 503, 'upstream_unavailable');
      await admin.setChannelStatus('slow', 'enabled');
      assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('slow') })).status, 200);
    });
  });

  describe('every response', () => {
    it('carries X-Request-Id, unique per request; OPTIONS answers CORS preflight; HEAD works like GET', async () => {
      const ids = new Set<string>();
      for (const [method, path] of [['GET', '/api/status'], ['GET', '/v1/models'], ['OPTIONS', '/v1/chat/completions'], ['HEAD', '/api/status'], ['GET', '/nowhere']] as const) {
        const answer = await call(t.gw, method, path, { key: t.key, headers: method === 'OPTIONS' ? { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } : {} });
        const id = answer.headers.get('x-request-id');
        assert.ok(id && !ids.has(id));
        ids.add(id);
        if (method === 'OPTIONS') {
          assert.equal(answer.status, 204);
          assert.equal(answer.headers.get('access-control-allow-origin'), '*');
          // The path's own methods, as its 405 lists them.
          assert.deepEqual([answer.headers.get('access-control-allow-methods'), answer.headers.get('allow')], ['POST, OPTIONS', 'POST, OPTIONS']);
        }
        if (method === 'HEAD') {
          assert.equal(answer.status, 200);
          assert.equal(answer.text, '');
        }
      }
    });

    it('/api/status needs no key and says success', async () => {
      const answer = await call(t.gw, 'GET', '/api/status');
      assert.equal(answer.status, 200);
      assert.equal(answer.json.success, true);
      assert.equal(typeof answer.json.data.version, 'string');
      assert.equal(typeof answer.json.data.uptime_seconds, 'number');
    });
  });
});

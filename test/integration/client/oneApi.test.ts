// The client against a fake gateway of the one-api / new-api family, over real HTTP:
// every error classified and explained, GET retries with Retry-After, no chat retry,
// abort closes the socket, the /v1 hint.
import assert from 'node:assert/strict';
import { closedPort } from '../../support/loopback.ts';
import { ERROR_CODES, STATUS_FAMILIES, firstCheckFor } from '../../../src/contract/index.ts';
import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  GatewayClient,
  GatewayError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../../../src/client/index.ts';
import { FakeOneApi } from '../../support/fakeOneApi.ts';
import { drain, rejection, useClients } from './clients.ts';
import type { Flavour } from '../../support/fakeOneApi.ts';

const GOOD = 'sk-good0000000000000000';
const MODELS = ['gpt-4o-mini', 'slow-model', 'cut-model', 'fail-model', 'secret-model'];
const hello = (model: string) => ({ model, messages: [{ role: 'user', content: '你好' }] });

/** The error carries the contract table's row: its family's action, and its condition's meaning and first check when one was recognised. */
function explained(error: GatewayError): void {
  const family = STATUS_FAMILIES[error.family];
  const condition = error.condition ? ERROR_CODES[error.condition] : null;
  assert.equal(error.action, family.action);
  assert.equal(error.meaning, condition ? `${family.meaning} (${condition.message})` : family.meaning);
  assert.equal(error.firstCheck, condition ? firstCheckFor(condition.status, error.condition!) : family.firstCheck);
}

for (const flavour of ['one_api', 'new_api'] as Flavour[]) {
  describe(`client against a ${flavour} gateway`, () => {
    let fake: FakeOneApi;
    const { client, logs } = useClients(() => ({ baseUrl: fake.url, apiKey: GOOD }));

    before(async () => {
      fake = await new FakeOneApi({
        flavour,
        models: MODELS,
        tokens: {
          [GOOD]: { remainQuota: 5 * 500_000, usedQuota: 1.25 * 500_000, models: MODELS.filter((m) => m !== 'secret-model') },
          'sk-unlimited': { unlimited: true, usedQuota: 500_000 },
          'sk-disabled': { state: 'disabled' },
          'sk-expired': { state: 'expired' },
          'sk-exhausted': { state: 'exhausted' },
        },
      }).start();
    });
    after(async () => {
      await fake.stop();
    });

    it('runs status, models, chat, chatStream and balance', async () => {
      const c = client({ baseUrl: `${fake.url}/v1/` });
      const status = await c.status();
      assert.equal(status.ok, true);
      assert.equal(status.httpStatus, 200);
      assert.deepEqual((await c.models()).map((m) => m.id), MODELS.filter((m) => m !== 'secret-model'));
      assert.deepEqual((await c.chatModels()).map((m) => m.id), MODELS.filter((m) => m !== 'secret-model'), 'a gateway that names no kinds: every model may chat');
      const completion = await c.chat(hello('gpt-4o-mini'));
      assert.equal(typeof completion.choices[0]!.message.content, 'string');
      assert.equal(typeof completion.choices[0]!.message.reasoning_content, 'string');
      const chunks = (await drain(c.chatStream(hello('gpt-4o-mini')))) as { choices: { delta?: Record<string, unknown>; finish_reason?: string | null }[] }[];
      assert.equal(chunks.length, 3);
      assert.equal(typeof chunks[0]!.choices[0]!.delta!['reasoning_content'], 'string');
      assert.equal(chunks[2]!.choices[0]!.finish_reason, 'stop');
      assert.deepEqual(await c.balance(), { remainingUsd: 5, usedUsd: 1.25, limitUsd: 6.25, unlimited: false });
    });

    it('reports an unlimited key as unlimited', async () => {
      const balance = await client({ apiKey: 'sk-unlimited' }).balance();
      assert.equal(balance.unlimited, true);
      assert.equal(balance.remainingUsd, null);
      assert.equal(balance.usedUsd, 1);
    });

    const tokenCases: [string, string | undefined, new (...a: never[]) => GatewayError, string][] = [
      ['no key', undefined, AuthenticationError, 'missing_api_key'],
      ['a wrong key', 'sk-wrong', AuthenticationError, 'invalid_api_key'],
      ['a disabled key', 'sk-disabled', PermissionDeniedError, 'key_disabled'],
      ['an expired key', 'sk-expired', PermissionDeniedError, 'key_expired'],
      ['an exhausted key', 'sk-exhausted', PermissionDeniedError, 'insufficient_balance'],
    ];
    for (const [name, key, cls, condition] of tokenCases) {
      it(`classifies ${name} on models, chat, stream and billing (billing errors come with HTTP 200)`, async () => {
        const c = client(key === undefined ? { apiKey: undefined } : { apiKey: key });
        for (const call of [c.models(), c.chat(hello('gpt-4o-mini')), drain(c.chatStream(hello('gpt-4o-mini'))), c.balance()]) {
          const error = await rejection(call);
          assert.ok(error instanceof cls, `${error.name}`);
          assert.equal(error.condition, condition);
          assert.equal(error.type === `${flavour}_error` || error.type === 'upstream_error', true);
          assert.notEqual(error.requestId, null);
          explained(error);
        }
        const billing = await rejection(c.balance());
        assert.equal(billing.status, 200);
      });
    }

    it('classifies a model without a channel (503) as a model problem, not a retryable fault', async () => {
      const c = client();
      const before = fake.count('POST /v1/chat/completions');
      const error = await rejection(c.chat(hello('no-such-model')));
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.condition, 'model_not_found');
      assert.equal(error.firstCheck, 'model');
      assert.equal(error.status, 503);
      assert.equal(error.hint, null);
      assert.equal(fake.count('POST /v1/chat/completions'), before + 1);
    });

    it('classifies a model the key may not use', async () => {
      const error = await rejection(client().chat(hello('secret-model')));
      assert.ok(error instanceof PermissionDeniedError);
      assert.equal(error.condition, 'model_not_permitted');
      assert.equal(error.firstCheck, 'permission');
    });

    it('turns an error body sent with HTTP 200 on chat into the typed error', async () => {
      const error = await rejection(client().chat(hello('error-on-200')));
      assert.ok(error instanceof PermissionDeniedError);
      assert.equal(error.condition, 'insufficient_balance');
      assert.equal(error.status, 200);
    });

    it('never retries a chat request, even on 429 and 500', async () => {
      const c = client({ maxRetries: 5 });
      const before = fake.count('POST /v1/chat/completions');
      assert.ok((await rejection(c.chat(hello('rate-limited')))) instanceof RateLimitError);
      assert.ok((await rejection(c.chat(hello('server-error')))) instanceof ServerError);
      assert.ok((await rejection(drain(c.chatStream(hello('rate-limited'))))) instanceof RateLimitError);
      assert.equal(fake.count('POST /v1/chat/completions'), before + 3);
    });

    it('retries GETs on 503 and 429, honouring Retry-After (seconds and HTTP date)', async () => {
      const c = client();
      const body = { error: { message: '当前负载已饱和', type: fake.errorType } };
      const before = fake.count('GET /v1/models');
      fake.failNext('GET /v1/models', 1, { status: 503, headers: { 'retry-after': '0' }, body });
      fake.failNext('GET /v1/models', 1, { status: 429, headers: { 'retry-after': new Date(Date.now() - 60_000).toUTCString() }, body });
      assert.equal((await c.models()).length, 4);
      assert.equal(fake.count('GET /v1/models'), before + 3);
    });

    it('gives up after maxRetries with the typed error and its Retry-After', async () => {
      const c = client({ maxRetries: 1 });
      const before = fake.count('GET /api/status');
      fake.failNext('GET /api/status', 2, { status: 503, headers: { 'retry-after': '0' }, body: { success: false, message: 'busy' } });
      const status = await c.status();
      assert.equal(status.ok, false);
      assert.equal(status.httpStatus, 503);
      assert.equal(fake.count('GET /api/status'), before + 2);
      const before2 = fake.count('GET /v1/models');
      fake.failNext('GET /v1/models', 2, { status: 502, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'bad gateway', type: fake.errorType } } });
      const error = await rejection(c.models());
      assert.ok(error instanceof ServerError);
      assert.equal(error.retryAfterMs, 0);
      assert.equal(fake.count('GET /v1/models'), before2 + 2);
    });

    it('throws when a stream ends without [DONE], or carries an error payload', async () => {
      const c = client();
      const cut = await rejection(drain(c.chatStream(hello('cut-model'))));
      assert.ok(cut instanceof ServerError);
      assert.equal(cut.code, 'stream_truncated');
      const failed = await rejection(drain(c.chatStream(hello('fail-model'))));
      assert.ok(failed instanceof PermissionDeniedError);
      assert.equal(failed.condition, 'insufficient_balance');
    });

    it('breaking out of the loop aborts the request: the server sees the connection close', async () => {
      const closed = fake.nextStreamClosedEarly();
      for await (const chunk of client().chatStream(hello('slow-model'))) {
        assert.ok(chunk);
        break;
      }
      await closed;
    });

    it('an AbortSignal aborts the request itself and gives an AbortError', async () => {
      const closed = fake.nextStreamClosedEarly();
      const controller = new AbortController();
      const error = await rejection((async () => {
        for await (const chunk of client().chatStream(hello('slow-model'), { signal: controller.signal })) {
          assert.ok(chunk);
          controller.abort();
        }
      })());
      assert.ok(error instanceof AbortError);
      await closed;
      const early = new AbortController();
      early.abort();
      assert.ok((await rejection(client().models({ signal: early.signal }))) instanceof AbortError);
    });

    it('a silent stream times out with a TimeoutError', async () => {
      const error = await rejection(drain(client({ timeoutMs: 300 }).chatStream(hello('slow-model'))));
      assert.ok(error instanceof TimeoutError);
      explained(error);
    });

    it('explains a base URL ending in /v1/v1 with the form that works', async () => {
      const error = await rejection(client({ baseUrl: `${fake.url}/v1/v1` }).models());
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.firstCheck, 'address');
      assert.ok(error.hint?.includes(`${fake.url}/v1`));
    });

    it('explains a base URL with a wrong path after /v1, also for chat', async () => {
      const error = await rejection(client({ baseUrl: `${fake.url}/v1/api` }).chat(hello('gpt-4o-mini')));
      assert.ok(error instanceof NotFoundError);
      assert.ok(error.hint?.includes(`${fake.url}/v1`));
    });

    it('explains a base URL that points at the web console (HTML) instead of the API', async () => {
      const error = await rejection(client({ baseUrl: `${fake.url}/console` }).models());
      assert.ok(error instanceof InvalidResponseError);
      assert.equal(error.code, 'html_response');
      assert.equal(error.firstCheck, 'address');
      assert.ok(error.hint?.includes(fake.url));
    });

    it('asks the usage endpoint again with a date range when it needs one', async () => {
      const strict = await new FakeOneApi({ flavour, models: MODELS, usageNeedsDates: true, tokens: { [GOOD]: { remainQuota: 500_000, usedQuota: 0 } } }).start();
      try {
        const balance = await client({ baseUrl: strict.url }).balance();
        assert.deepEqual(balance, { remainingUsd: 1, usedUsd: 0, limitUsd: 1, unlimited: false });
        assert.equal(strict.usageQueries.length, 2);
        assert.match(strict.usageQueries[1]!, /start_date=\d{4}-\d\d-\d\d&end_date=\d{4}-\d\d-\d\d/);
      } finally {
        await strict.stop();
      }
    });

    it('never puts the key in the log lines', () => {
      assert.ok(logs.length > 20);
      for (const info of logs) assert.equal(JSON.stringify(info).includes(GOOD), false);
      assert.ok(logs.some((info) => info.error !== undefined && info.requestId !== null));
    });
  });
}

describe('client connection failures', () => {
  it('a closed port gives a ConnectionError', async () => {
    const port = await closedPort();
    const c = new GatewayClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: GOOD, maxRetries: 0 });
    try {
      const error = await rejection(c.models());
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.firstCheck, 'address');
      assert.ok((await rejection(c.status())) instanceof ConnectionError);
    } finally {
      await c.close();
    }
  });
});

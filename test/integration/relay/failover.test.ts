// Failover before the first byte: priority first, then the next channel on 500 / 429 / timeout / refused connection.
import assert from 'node:assert/strict';
import { poll } from '../../support/poll.ts';
import { closedPort } from '../../support/loopback.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { post, SseReader, startHarness, type Harness } from './harness.ts';
import type { NewChannel } from '../../../src/gateway/store/types.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';

const ask = (stream: boolean) => ({ model: 'm', stream, messages: [{ role: 'user', content: 'hello' }] });

/** A base URL where nothing listens: connections are refused. */
const refusedUrl = async () => `http://127.0.0.1:${await closedPort()}/v1`;

describe('relay: failover', () => {
  const fakes: FakeUpstream[] = [];
  let harness: Harness | undefined;
  const start = async (count: number) => {
    for (let i = 0; i < count; i++) fakes.push(await startFakeUpstream());
    return fakes;
  };
  const serve = async (channels: Partial<NewChannel>[]) => (harness = await startHarness({ channels }));

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  it('tries higher priority first, whatever the order given', async () => {
    const [low, high] = await start(2);
    const h = await serve([{ baseUrl: low!.url, priority: 1, weight: 100 }, { baseUrl: high!.url, priority: 5, weight: 1 }]);
    for (let i = 0; i < 5; i++) assert.equal((await post(h, ask(false))).status, 200);
    assert.equal(high!.requests.length, 5);
    assert.equal(low!.requests.length, 0);
  });

  it('prompt-cache affinity: a key stays on the channel that served it, leaves it when it fails, and never overrides priority', async () => {
    const [a, b] = await start(2);
    const h = await serve([{ baseUrl: a!.url, weight: 1 }, { baseUrl: b!.url, weight: 1 }]);
    for (let i = 0; i < 20; i++) assert.equal((await post(h, ask(i % 2 === 0))).status, 200);
    // Without affinity, 20 requests at equal weights land on one channel with probability 2^-19.
    const [first, other] = a!.requests.length > 0 ? [a!, b!] : [b!, a!];
    assert.deepEqual([first.requests.length, other.requests.length], [20, 0]);

    first.behaviour = { status: 503 };
    assert.equal((await post(h, ask(false))).status, 200, 'failover to the other channel');
    first.behaviour = {};
    for (let i = 0; i < 10; i++) assert.equal((await post(h, ask(false))).status, 200);
    assert.deepEqual([first.requests.length, other.requests.length], [21, 11], 'after the failure the key stays where it was served');

    // A channel of higher priority always comes first, whatever the key last used.
    await addChannelPricedFree(h.admin, { ...newChannel({ name: 'high', baseUrl: first.url, priority: 9, apiKey: 'sk-high' }) });
    for (let i = 0; i < 3; i++) assert.equal((await post(h, ask(false))).status, 200);
    assert.equal(first.requests.slice(-3).filter((r) => r.headers.authorization === 'Bearer sk-high').length, 3);
  });

  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`${mode}: moves on after 500, 429 and 503, in priority order`, async () => {
      const [a, b, c, d] = await start(4);
      a!.behaviour = { status: 500 };
      b!.behaviour = { status: 429, retryAfter: '7' };
      c!.behaviour = { status: 503 };
      const h = await serve([
        { baseUrl: d!.url, priority: 1 },
        { baseUrl: c!.url, priority: 2 },
        { baseUrl: a!.url, priority: 4 },
        { baseUrl: b!.url, priority: 3 },
      ]);
      const response = await post(h, ask(stream));
      assert.equal(response.status, 200);
      if (stream) assert.equal((await new SseReader(response).all()).at(-1), '[DONE]');
      else await response.json();
      assert.deepEqual([a, b, c, d].map((f) => f!.requests.length), [1, 1, 1, 1]);
      const log = await h.log(1);
      assert.deepEqual([log.status, log.errorCode, log.channel], [200, null, h.channels[0]!.name]);
    });

    it(`${mode}: moves on after a refused connection and after a first-byte timeout`, async () => {
      const [slow, good] = await start(2);
      slow!.behaviour = { hang: stream ? 'body' : 'headers' };
      const fast = 200;
      const h = await serve([
        { baseUrl: await refusedUrl(), priority: 3 },
        { baseUrl: slow!.url, priority: 2, timeoutMs: fast },
        { baseUrl: good!.url, priority: 1 },
      ]);
      const response = await post(h, ask(stream));
      assert.equal(response.status, 200);
      await response.text();
      assert.equal(good!.requests.length, 1);
      assert.equal(await slow!.requests[0]!.closed, 'aborted', 'the timed-out upstream request was abandoned');
    });
  }

  it('all channels rate limited: 429 upstream_rate_limited with the upstream Retry-After', async () => {
    const [a, b] = await start(2);
    a!.behaviour = { status: 503 };
    b!.behaviour = { status: 429, retryAfter: '12' };
    const h = await serve([{ baseUrl: a!.url, priority: 2 }, { baseUrl: b!.url, priority: 1 }]);
    const response = await post(h, ask(true));
    assert.equal(response.status, 429);
    assert.equal(((await response.json()) as any).error.code, 'upstream_rate_limited');
    assert.equal(response.headers.get('retry-after'), '12');
    const log = await h.log(1);
    assert.deepEqual([log.status, log.errorCode, log.channel, log.cost], [429, 'upstream_rate_limited', h.channels[1]!.name, 0]);
  });

  it('all channels failing: the last failure names the code (timeout, unavailable, error)', async () => {
    const [hang, broken] = await start(2);
    hang!.behaviour = { hang: 'headers' };
    broken!.behaviour = { status: 502 };
    const fast = 150;
    const expectations: Array<[Partial<NewChannel>, number, string]> = [
      [{ baseUrl: hang!.url, timeoutMs: fast }, 503, 'upstream_timeout'],
      [{ baseUrl: await refusedUrl() }, 503, 'upstream_unavailable'],
      [{ baseUrl: broken!.url }, 502, 'upstream_error'],
    ];
    const h = await serve([]);
    for (const [only, status, code] of expectations) {
      await h.setChannels([only]);
      const response = await post(h, ask(false));
      assert.equal(response.status, status);
      assert.equal(((await response.json()) as any).error.code, code);
    }
    await h.setChannels([]);
    assert.equal(((await (await post(h, ask(false))).json()) as any).error.code, 'upstream_unavailable', 'priced, but no channel serves the model any more');
  });

  it("treats the upstream's 401 (our channel key is wrong) as the channel's fault: failover, never the client's 401", async () => {
    const [bad, good] = await start(2);
    bad!.behaviour = { status: 401 };
    const h = await serve([{ baseUrl: bad!.url, priority: 1 }, { baseUrl: good!.url }]);
    assert.equal((await post(h, ask(false))).status, 200);
    // A refused key fails every request: the channel is disabled in the store, and the next request goes straight on.
    const badName = h.channels[0]!.name;
    await poll('the channel disabled', async () => ((await h.admin.listChannels()).find((c) => c.name === badName)?.status === 'disabled' ? true : undefined), 5000, 20);
    assert.equal((await post(h, ask(false))).status, 200);
    assert.equal(bad!.requests.length, 1, 'not tried again');
    await h.setChannels([{ baseUrl: bad!.url }]);
    const response = await post(h, ask(false));
    assert.equal(response.status, 502);
    assert.equal(((await response.json()) as any).error.code, 'upstream_error');
  });

  for (const mode of ['whole', 'streamed'] as const) {
    it(`${mode}: a 403 disables the channel only when it is about the channel's key; one about the request is the client's 400, and no channel is disabled`, async () => {
      const [keyed, flagged, region, good] = await start(4);
      keyed!.behaviour = { status: 403, errorMessage: 'Your API key has been deactivated.' };
      flagged!.behaviour = { status: 403, errorMessage: 'Your request was flagged by our content policy: violence' };
      region!.behaviour = { status: 403, errorMessage: 'Country, region, or territory not supported' };
      const h = await serve([{ baseUrl: keyed!.url, priority: 3 }, { baseUrl: region!.url, priority: 2 }, { baseUrl: good!.url }]);
      const stream = mode === 'streamed';
      assert.equal((await post(h, ask(stream))).status, 200, 'the key 403 and the region 403 fail over');
      const [keyedName, regionName] = [h.channels[0]!.name, h.channels[1]!.name];
      await poll('the channel of the refused key disabled', async () => ((await h.admin.listChannels()).find((c) => c.name === keyedName)?.status === 'disabled' ? true : undefined), 5000, 20);
      assert.equal((await h.admin.listChannels()).find((c) => c.name === regionName)?.status, 'enabled', "a 403 that names no key is the channel's trouble, not its key's");
      const attempts = JSON.parse((await h.log(1)).attempts!) as { channel: string; detail: string }[];
      assert.match(attempts[0]!.detail, /key was refused: Your API key has been deactivated\./, 'the upstream words are on the log row');
      assert.match(attempts[1]!.detail, /^upstream HTTP 403: Country, region, or territory not supported$/);

      // A prompt the upstream's moderation refuses: the client's to change, and the channel stays on for everyone.
      await h.setChannels([{ baseUrl: flagged!.url, priority: 1 }, { baseUrl: good!.url }]);
      const refused = await post(h, ask(stream));
      assert.equal(refused.status, 400);
      assert.match(((await refused.json()) as any).error.message, /flagged by our content policy/);
      assert.equal(good!.requests.length, 1, 'not failed over: another channel would be asked the same thing');
      assert.ok((await h.admin.listChannels()).every((c) => c.name === keyedName || c.status === 'enabled'), 'no channel disabled by a client');
    });
  }

  it('a failed attempt keeps the upstream words, short and with the channel key masked, for the operator only', async () => {
    const [broken, good] = await start(2);
    broken!.behaviour = { status: 500, errorMessage: `internal boom near ${'x'.repeat(300)}` };
    const h = await serve([{ baseUrl: broken!.url, priority: 1, apiKey: 'zz-0123456789abcdefghij' }, { baseUrl: good!.url }]);
    broken!.behaviour = { status: 503, errorMessage: 'backend 3456789abcdefghij unreachable' };
    assert.equal((await post(h, ask(false))).status, 200);
    const [attempt] = JSON.parse((await h.log(1)).attempts!) as { detail: string }[];
    assert.equal(attempt!.detail, 'upstream HTTP 503: backend **** unreachable');
    await h.setChannels([{ baseUrl: broken!.url, apiKey: 'zz-0123456789abcdefghij' }]);
    broken!.behaviour = { status: 500, errorMessage: `internal boom near ${'x'.repeat(300)}` };
    const failed = await post(h, ask(false));
    assert.equal(failed.status, 502);
    const body = (await failed.json()) as any;
    assert.doesNotMatch(body.error.message, /boom/, "the upstream's words are not the client's");
  });

  it('failover with memory: a channel failing every request is skipped after 3 failures, and each request logs what it tried first', async () => {
    const [broken, good] = await start(2);
    broken!.behaviour = { status: 500 };
    const h = await serve([{ baseUrl: broken!.url, priority: 1 }, { baseUrl: good!.url }]);
    for (let i = 0; i < 5; i++) assert.equal((await post(h, ask(false))).status, 200);
    assert.equal(broken!.requests.length, 3, 'tried three times, then left alone during its cool-down');
    assert.equal(good!.requests.length, 5);
    const last = await h.log(5);
    const first = await h.log(1);
    assert.deepEqual(JSON.parse(first.attempts!).map((a: { channel: string; code: string }) => [a.channel, a.code]), [[h.channels[0]!.name, 'upstream_error']]);
    assert.equal(last.attempts ?? null, null, 'a request that skipped it tried nothing else first');
  });
});

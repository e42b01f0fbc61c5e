// A channel with `proxy` reaches its upstream through that HTTP proxy.
import assert from 'node:assert/strict';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { startForwardProxy, type ForwardProxy } from '../../support/forwardProxy.ts';
import { post, startHarness, type Harness } from './harness.ts';

describe('relay: channel proxy', () => {
  let fake: FakeUpstream;
  let harness: Harness;
  let proxy: ForwardProxy;

  before(async () => {
    fake = await startFakeUpstream();
    proxy = await startForwardProxy();
    harness = await startHarness({ channels: [{ baseUrl: fake.url, proxy: proxy.url }] });
  });
  after(async () => {
    await harness.close();
    await proxy.stop();
    await fake.close();
  });

  it('goes through the proxy', async () => {
    const response = await post(harness, { model: 'm', messages: [{ role: 'user', content: 'via proxy' }] });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as any).model, 'm');
    assert.equal(fake.requests.length, 1);
    const port = new URL(fake.url).port;
    assert.ok(proxy.seen.some((line) => line.includes(`127.0.0.1:${port}`)), `proxy saw: ${proxy.seen.join(', ')}`);
  });
});

// The extension's device sign-in client (src/extension/signIn/deviceFlow.ts, no vscode) against the
// real gateway over HTTP (issue 14): it finds the endpoints in /api/status (and none on one-api or
// new-api), gets a code, and polls until a signed-in user approves in the console's JSON; it respects
// slow_down, and ends with the right reason on denial, expiry and cancellation. The waits between polls
// move the gateway's test clock instead of sleeping, so the gateway sees them as the real ones.
import assert from 'node:assert/strict';
import { startGateway, type RunningGateway } from '../../../src/gateway/server.ts';
import { DeviceSignInError, findDeviceFlow, startDeviceSignIn, waitForKey, type DeviceFlowEndpoints } from '../../../src/extension/signIn/deviceFlow.ts';
import { FakeOneApi } from '../../support/fakeOneApi.ts';
import { startForwardProxy } from '../../support/forwardProxy.ts';
import { createDispatcher } from '../../../src/client/index.ts';
import { consoleAgent, makeUser, type ConsoleAgent } from '../gateway/consoleAgent.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { tempDir } from '../gateway/helpers.ts';
import { rmSync } from 'node:fs';

describe('the extension signs in with the browser (device flow) against the real gateway', function () {
  this.timeout(30_000);
  let gw: RunningGateway;
  let dir: string;
  let now = Date.now();
  let ada: ConsoleAgent;
  let endpoints: DeviceFlowEndpoints;
  /** The wait between polls: the gateway's clock moves by what the client asked for (or by `shortBy` less, once). */
  let shortBy = 0;
  const waits: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw new DeviceSignInError('cancelled', 'Sign-in cancelled.');
    waits.push(ms);
    now += ms - shortBy;
    shortBy = 0;
  };
  const clock = () => now;

  before(async () => {
    dir = tempDir();
    gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, echoDelayMs: 0, clock });
    const admin = openStore({ dataDir: dir });
    await makeUser(admin, 'ada', 1_000_000);
    await admin.close();
    ada = consoleAgent(gw);
    assert.equal((await ada.signIn('ada')).status, 200);
  });
  after(async () => {
    await gw?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the endpoints in /api/status on our gateway, and none on one-api or new-api', async () => {
    endpoints = (await findDeviceFlow(gw.url))!;
    assert.deepEqual(endpoints, { deviceAuthorization: `${gw.url}/api/oauth/device_authorization`, token: `${gw.url}/api/oauth/token` });
    for (const flavour of ['one_api', 'new_api'] as const) {
      const fake = await new FakeOneApi({ flavour, tokens: {} }).start();
      try {
        assert.equal(await findDeviceFlow(fake.url.replace(/\/v1$/, '')), null, flavour);
      } finally {
        await fake.stop();
      }
    }
  });

  it('polls until ada approves, slowing down when told; the key works and is named after the machine', async () => {
    const started = await startDeviceSignIn(endpoints, 'model-gateway-vscode', 'VS Code on test-box');
    assert.equal(started.interval, 5);
    const slowDowns: number[] = [];
    waits.length = 0;
    // The second wait arrives 4 s early at the gateway: it says slow_down, and the client waits 10 s from then on.
    let polls = 0;
    const approving = async (ms: number, signal?: AbortSignal) => {
      polls++;
      if (polls === 2) shortBy = 4000;
      if (polls === 4) assert.equal((await ada.post('/api/console/device/approve', { user_code: started.user_code })).status, 200);
      await sleep(ms, signal);
    };
    const got = await waitForKey(endpoints, started, { sleep: approving, now: clock, onSlowDown: (s) => slowDowns.push(s) });
    assert.deepEqual(slowDowns, [10]);
    assert.deepEqual(waits, [5000, 5000, 10_000, 10_000]);
    assert.equal(got.keyName, 'VS-Code-on-test-box');
    const models = await fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${got.key}` } });
    assert.equal(models.status, 200);
  });

  it('through VS Code\'s proxy setting (the client\'s transport, as the Sign In command builds it): the flow goes through the proxy', async () => {
    const proxy = await startForwardProxy();
    // One dispatcher per step: each opens its own tunnel, so each step is seen passing the proxy.
    const dispatchers = [1, 2, 3].map(() => createDispatcher({ proxy: proxy.url }));
    const tunnels = () => proxy.seen.length;
    try {
      const found = await findDeviceFlow(gw.url, { dispatcher: dispatchers[0]! });
      assert.deepEqual(found, endpoints);
      assert.equal(tunnels(), 1, 'GET /api/status');
      const started = await startDeviceSignIn(found!, 'model-gateway-vscode', 'VS Code on proxied-box', { dispatcher: dispatchers[1]! });
      assert.equal(tunnels(), 2, 'POST device_authorization');
      let polls = 0;
      const approving = async (ms: number, signal?: AbortSignal) => {
        if (++polls === 2) assert.equal((await ada.post('/api/console/device/approve', { user_code: started.user_code })).status, 200);
        await sleep(ms, signal);
      };
      const got = await waitForKey(found!, started, { dispatcher: dispatchers[2]!, sleep: approving, now: clock });
      assert.equal(got.keyName, 'VS-Code-on-proxied-box');
      assert.ok(tunnels() >= 3, 'POST token');
      // undici tunnels through the proxy (CONNECT), one tunnel per connection; the gateway is the only target.
      assert.deepEqual(proxy.seen.filter((hit) => hit !== `CONNECT ${new URL(gw.url).host}`), []);
    } finally {
      for (const dispatcher of dispatchers) await dispatcher.close();
      await proxy.stop();
    }
  });

  it('denied in the console: DeviceSignInError denied', async () => {
    const started = await startDeviceSignIn(endpoints, 'model-gateway-vscode', 'VS Code on test-box');
    assert.equal((await ada.post('/api/console/device/deny', { user_code: started.user_code })).status, 200);
    await assert.rejects(waitForKey(endpoints, started, { sleep, now: clock }), (e: DeviceSignInError) => e.kind === 'denied');
  });

  it('never approved: expired after ten minutes of polling', async () => {
    const started = await startDeviceSignIn(endpoints, 'model-gateway-vscode', 'VS Code on test-box');
    waits.length = 0;
    await assert.rejects(waitForKey(endpoints, started, { sleep, now: clock }), (e: DeviceSignInError) => e.kind === 'expired');
    assert.ok(waits.length >= 119 && waits.length <= 121, `${waits.length} polls`);
  });

  it('cancelled while waiting: DeviceSignInError cancelled, and the gateway gave no key', async () => {
    const started = await startDeviceSignIn(endpoints, 'model-gateway-vscode', 'VS Code on cancel-box');
    const controller = new AbortController();
    let polls = 0;
    const cancelling = async (ms: number, signal?: AbortSignal) => {
      if (++polls === 3) controller.abort();
      await sleep(ms, signal);
    };
    await assert.rejects(waitForKey(endpoints, started, { sleep: cancelling, now: clock, signal: controller.signal }), (e: DeviceSignInError) => e.kind === 'cancelled');
    assert.equal(polls, 3);
    const store = openStore({ dataDir: dir });
    try {
      assert.ok(!(await store.listKeys()).some((k) => k.name.startsWith('VS-Code-on-cancel-box')));
    } finally {
      await store.close();
    }
  });
});

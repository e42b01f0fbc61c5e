// Proxies: the `proxy` option (VS Code's http.proxy), `noProxy` (http.noProxy), and HTTP(S)_PROXY / NO_PROXY from the environment.
import assert from 'node:assert/strict';
import { ConnectionError, GatewayClient } from '../../../src/client/index.ts';
import type { GatewayClientOptions } from '../../../src/client/index.ts';
import { FakeOneApi } from '../../support/fakeOneApi.ts';
import { startForwardProxy } from '../../support/forwardProxy.ts';
import type { ForwardProxy } from '../../support/forwardProxy.ts';

const KEY = 'sk-proxytest000000000000';
const ENV_NAMES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];

describe('client proxies', () => {
  let fake: FakeOneApi;
  let proxy: ForwardProxy;
  let savedEnv: Record<string, string | undefined>;

  async function modelsThrough(options: Partial<GatewayClientOptions>): Promise<number> {
    const client = new GatewayClient({ baseUrl: fake.url, apiKey: KEY, ...options });
    try {
      const before = proxy.hits();
      assert.equal((await client.models()).length, 1);
      return proxy.hits() - before;
    } finally {
      await client.close();
    }
  }

  before(async () => {
    fake = await new FakeOneApi({ tokens: { [KEY]: {} } }).start();
    proxy = await startForwardProxy();
    savedEnv = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
    for (const name of ENV_NAMES) delete process.env[name];
  });
  afterEach(() => {
    for (const name of ENV_NAMES) delete process.env[name];
  });
  after(async () => {
    for (const name of ENV_NAMES) if (savedEnv[name] !== undefined) process.env[name] = savedEnv[name];
    await proxy.stop();
    await fake.stop();
  });

  it('goes direct without a proxy', async () => {
    assert.equal(await modelsThrough({}), 0);
  });

  it('uses the proxy option', async () => {
    assert.ok((await modelsThrough({ proxy: proxy.url })) > 0);
  });

  it('bypasses the proxy for hosts in noProxy', async () => {
    assert.equal(await modelsThrough({ proxy: proxy.url, noProxy: 'localhost,127.0.0.1' }), 0);
  });

  it('uses HTTP_PROXY from the environment, and honours NO_PROXY', async () => {
    process.env['HTTP_PROXY'] = proxy.url;
    assert.ok((await modelsThrough({})) > 0);
    process.env['NO_PROXY'] = '127.0.0.1';
    assert.equal(await modelsThrough({}), 0);
  });

  it('refuses a proxy setting that is not a URL with a typed error', () => {
    assert.throws(() => new GatewayClient({ baseUrl: fake.url, proxy: 'not a url' }), (e: unknown) => e instanceof ConnectionError);
  });
});

// The balance in the status bar follows the gateway and key in use: after a switch (another base URL, another
// profile) the old account's money is never shown, not while the new reading runs and not when it fails.
import assert from 'node:assert/strict';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { statusText } from '../../../src/extension/statusBar/balanceState.ts';
import { activate, resetConfiguration, setSettings, startSuiteGateway, useSuiteGateway, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

describe('balance status bar', () => {
  let api: ModelGatewayApi;
  let suite: SuiteGateway;

  before(async () => {
    ({ api } = await activate());
    suite = await startSuiteGateway();
    await useSuiteGateway(api, suite);
  });

  after(async () => {
    await resetConfiguration(api);
    await suite?.stop();
  });

  it("never shows the previous gateway's balance after the base URL changes to one that cannot be read", async () => {
    await api.balance.refreshNow();
    const read = await waitFor('the balance of the suite gateway', () => (api.balance.view.kind === 'ok' ? api.balance.view : undefined));
    assert.equal(read.balance.remainingUsd, 10);

    // Nothing listens on port 9 of 127.0.0.1 here: connections are refused.
    await setSettings(api, { baseUrl: 'http://127.0.0.1:9' });
    assert.equal(api.balance.view.kind, 'loading', `the old balance is gone at once: ${statusText(api.balance.view)}`);
    await api.balance.refreshNow();
    const view = await waitFor('the failed reading', () => (api.balance.view.kind === 'error' ? api.balance.view : undefined));
    assert.equal(view.last, null, 'no "last known" balance of another gateway');
    assert.equal(statusText(view), '$(credit-card) Gateway: unreachable');
  });
});

// The balance in the status bar follows the gateway and key in use: after a switch (another base URL, another
// profile) the old account's money is never shown, not while the new reading runs and not when it fails; and it
// follows spending through VS Code's own chat (the language-model provider), not only through @gateway.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { SOFT_REFRESH_DEBOUNCE_MS, statusText } from '../../../src/extension/statusBar/balanceState.ts';
import { activate, readText, resetConfiguration, setSettings, startSuiteGateway, useSuiteGateway, VENDOR, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

describe('balance status bar', () => {
  let api: ModelGatewayApi;
  let suite: SuiteGateway;
  let configuredAt = 0;

  before(async () => {
    ({ api } = await activate());
    suite = await startSuiteGateway();
    await useSuiteGateway(api, suite);
    configuredAt = Date.now();
  });

  after(async () => {
    await resetConfiguration(api);
    await suite?.stop();
  });

  it('goes down after an answer through vscode.lm (the chat model picker, Agent mode), without waiting for the interval', async () => {
    // The reading that follows the set-up (debounced) comes first, so that it cannot pass for the one after the answer.
    const before = await waitFor('the reading after the set-up', () => (api.balance.view.kind === 'ok' && api.balance.view.at >= configuredAt + SOFT_REFRESH_DEBOUNCE_MS ? api.balance.view.balance.remainingUsd : undefined));
    const [echo] = (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.family === 'echo');
    const response = await echo!.sendRequest([vscode.LanguageModelChatMessage.User('what does this cost')], { justification: 'in-editor test' });
    await readText(response);
    // The interval is a minute; the refresh after an answer comes within a few seconds.
    const after = await waitFor('the balance to go down', () => (api.balance.view.kind === 'ok' && api.balance.view.balance.remainingUsd !== before ? api.balance.view.balance.remainingUsd : undefined), 15000);
    assert.ok(after !== null && before !== null && after < before, `${before} -> ${after}`);
  });

  it("never shows the previous gateway's balance after the base URL changes to one that cannot be read", async () => {
    await api.balance.refreshNow();
    await waitFor('the balance of the suite gateway', () => (api.balance.view.kind === 'ok' ? api.balance.view : undefined));

    // Nothing listens on port 9 of 127.0.0.1 here: connections are refused.
    await setSettings(api, { baseUrl: 'http://127.0.0.1:9' });
    assert.equal(api.balance.view.kind, 'loading', `the old balance is gone at once: ${statusText(api.balance.view)}`);
    await api.balance.refreshNow();
    const view = await waitFor('the failed reading', () => (api.balance.view.kind === 'error' ? api.balance.view : undefined));
    assert.equal(view.last, null, 'no "last known" balance of another gateway');
    assert.equal(statusText(view), '$(credit-card) Gateway: unreachable');
  });
});

// The completions status bar item while the extension has no key or base URL: completions cannot run, so it must
// not say "on" (it did: a completion model set, the key cleared, and the item kept saying on while no ghost text
// could ever come); a click sets up what is missing instead of switching completions off.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, resetConfiguration, setKey, startSuiteGateway, useSuiteGateway, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

describe('completions status without a key', () => {
  let api: ModelGatewayApi;
  let suite: SuiteGateway;

  before(async () => {
    ({ api } = await activate());
    suite = await startSuiteGateway();
    await useSuiteGateway(api, suite);
    await vscode.workspace.getConfiguration('modelGateway').update('completionModel', 'echo-completion', vscode.ConfigurationTarget.Global);
    await waitFor('the completion model to be read', () => api.services.settings.current.completionModel === 'echo-completion' || undefined);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('modelGateway').update('completionModel', undefined, vscode.ConfigurationTarget.Global);
    await resetConfiguration(api);
    await suite?.stop();
  });

  it('says off, not configured, while the key is missing; on again once it is set', async () => {
    await waitFor('completions on', () => api.completions.status.state.kind === 'on' || undefined);
    await setKey(api, undefined);
    const off = await waitFor('completions off for want of a key', () => (api.completions.status.state.kind === 'off' ? api.completions.status.state : undefined), 5000);
    assert.equal(off.reason, 'not_configured');
    await setKey(api, suite.key);
    await waitFor('completions on again', () => api.completions.status.state.kind === 'on' || undefined);
  });
});

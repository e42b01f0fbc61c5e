// The completions status bar item while the extension has no key or base URL: completions cannot run, so it must
// not say "on" (it did: a completion model set, the key cleared, and the item kept saying on while no ghost text
// could ever come); a click sets up what is missing instead of switching completions off.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setKey, suiteGatewayHooks, waitFor } from './helpers.ts';

describe('completions status without a key', () => {
  const gateway = suiteGatewayHooks();

  before(async () => {
    await vscode.workspace.getConfiguration('modelGateway').update('completionModel', 'echo-completion', vscode.ConfigurationTarget.Global);
    await waitFor('the completion model to be read', () => gateway.api.services.settings.current.completionModel === 'echo-completion' || undefined);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('modelGateway').update('completionModel', undefined, vscode.ConfigurationTarget.Global);
  });

  it('says off, not configured, while the key is missing; on again once it is set', async () => {
    await waitFor('completions on', () => gateway.api.completions.status.state.kind === 'on' || undefined);
    await setKey(gateway.api, undefined);
    const off = await waitFor('completions off for want of a key', () => (gateway.api.completions.status.state.kind === 'off' ? gateway.api.completions.status.state : undefined), 5000);
    assert.equal(off.reason, 'not_configured');
    await setKey(gateway.api, gateway.suite.key);
    await waitFor('completions on again', () => gateway.api.completions.status.state.kind === 'on' || undefined);
  });
});

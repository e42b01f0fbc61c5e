// "Run Self-Test" against a good and a bad configuration, with a gateway started by the suite itself
// (the bundled gateway's public startGateway, in this extension host, on 127.0.0.1 port 0).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import type { SelfTestReport } from '../../../src/extension/selfTest/run.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { activate, resetConfiguration, setKey, setSettings, startSuiteGateway, useSuiteGateway, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

const outcomes = (report: SelfTestReport) => report.steps.map((s) => `${s.id}:${s.outcome}`).join(' ');

describe('self-test command', () => {
  let api: ModelGatewayApi;
  let suite: SuiteGateway;
  let gateway: RunningGateway;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    suite = await startSuiteGateway();
    gateway = suite.gateway;
  });

  after(async () => {
    await resetConfiguration(api);
    await suite?.stop();
  });

  it('passes all three steps against a good configuration', async () => {
    await useSuiteGateway(api, suite);
    const report = await vscode.commands.executeCommand<SelfTestReport>('modelGateway.runSelfTest');
    assert.equal(outcomes(report), 'status:passed models:passed chat:passed');
    assert.equal(report.ok, true);
    assert.deepEqual(report.models, ['echo']);
    assert.equal(report.steps[2]!.detail, 'The model "echo" replied: "You said: This is a connection test. Reply with the single word: OK"');
  });

  it('shows the report rendered in the Markdown preview, from a read-only Markdown document', async () => {
    const tab = await waitFor('the Markdown preview tab', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(active.input.viewType) ? active : undefined;
    });
    assert.match(tab.label, /Model Gateway Self-Test/);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'model-gateway-report');
    assert.ok(document, 'the report document is open');
    assert.equal(document.languageId, 'markdown');
    assert.match(document.getText(), /Model Gateway Self-Test/);
    assert.ok(!document.getText().includes(suite.key), 'the report never holds the key');
  });

  it('diagnoses a wrong key as 401 at step 2', async () => {
    await setKey(api, 'sk-this-key-does-not-exist-0000');
    const report = await vscode.commands.executeCommand<SelfTestReport>('modelGateway.runSelfTest');
    assert.equal(outcomes(report), 'status:passed models:failed chat:skipped');
    assert.equal(report.firstFailure?.httpStatus, 401);
    assert.equal(report.firstFailure?.explanation?.kind, 'authentication');
    assert.equal(report.firstFailure?.explanation?.firstCheck, 'key');
    assert.ok(report.firstFailure?.explanation?.fixes.some((f) => f.command === 'modelGateway.setApiKey'));
  });

  it('diagnoses a base URL ending in /v1/v1 and names the form that works', async () => {
    await setKey(api, suite.key);
    await setSettings(api, { baseUrl: `${gateway.url}/v1/v1` });
    const report = await vscode.commands.executeCommand<SelfTestReport>('modelGateway.runSelfTest');
    assert.equal(report.ok, false, outcomes(report));
    assert.equal(report.firstFailure?.explanation?.firstCheck, 'address', outcomes(report));
    const hints = report.steps.map((s) => s.explanation?.hint ?? '').join(' ');
    assert.ok(hints.includes(`Use ${gateway.url}/v1 instead of ${gateway.url}/v1/v1`), `no working form named: ${hints}`);
  });

  it('diagnoses an unreachable address as a connection failure', async () => {
    const closed = gateway.port === 9 ? 10 : 9;
    await setSettings(api, { baseUrl: `http://127.0.0.1:${closed}` });
    const report = await vscode.commands.executeCommand<SelfTestReport>('modelGateway.runSelfTest');
    assert.equal(outcomes(report), 'status:failed models:skipped chat:skipped');
    assert.equal(report.firstFailure?.explanation?.kind, 'connection');
  });
});

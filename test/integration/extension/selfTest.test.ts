// The self-test (contract 7.4) against the real bundled gateway over HTTP on 127.0.0.1, and its reports.
import assert from 'node:assert/strict';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { problemReport, reportMarkdown, reportSummary } from '../../../src/extension/selfTest/report.ts';
import { runSelfTest } from '../../../src/extension/selfTest/run.ts';
import type { SelfTestReport } from '../../../src/extension/selfTest/run.ts';
import { useEchoGateway } from '../../support/echoGateway.ts';
import { closedPort } from '../../support/loopback.ts';

const ENV = { extensionName: 'Model Gateway (model-gateway.model-gateway)', extensionVersion: '0.1.0', vscodeVersion: '1.139.1 (code-server)' };


function outcomes(report: SelfTestReport): string {
  return report.steps.map((s) => `${s.id}:${s.outcome}`).join(' ');
}

describe('extension self-test against the bundled gateway', () => {
  const echo = useEchoGateway();
  let gateway: RunningGateway;
  let key: string;

  before(() => {
    gateway = echo.gw;
    key = echo.gw.bootstrapKey!;
  });

  it('passes all three steps with a good key and model', async () => {
    const seen: string[] = [];
    const report = await runSelfTest({ baseUrl: gateway.url, apiKey: key, model: 'echo' }, { onStep: (s) => seen.push(`${s.id}${s.done ? ':' + s.done.outcome : ''}`) });
    assert.equal(outcomes(report), 'status:passed models:passed chat:passed');
    assert.equal(report.ok, true);
    assert.equal(report.modelListed, true);
    assert.ok(report.models?.includes('echo'));
    assert.deepEqual(seen, ['status', 'status:passed', 'models', 'models:passed', 'chat', 'chat:passed']);
    for (const step of report.steps) {
      assert.equal(step.httpStatus, 200, step.id);
      assert.equal(step.explanation, null, step.id);
      assert.match(step.requestId ?? '', /\S/, `${step.id}: the gateway's request id is kept`);
    }
    assert.equal(report.steps[2]!.detail, 'The model "echo" replied: "You said: This is a connection test. Reply with the single word: OK"');
    assert.equal(reportSummary(report), 'Self-test passed: all 3 steps OK.');
  });

  it('accepts the base URL with /v1 and a trailing slash (contract 1.6)', async () => {
    const report = await runSelfTest({ baseUrl: `${gateway.url}/v1/`, apiKey: key, model: 'echo' });
    assert.equal(outcomes(report), 'status:passed models:passed chat:passed');
  });

  it('diagnoses a refused key as 401, starting at the key, and skips chat', async () => {
    const wrong = 'sk-this-key-does-not-exist-1234567890';
    const report = await runSelfTest({ baseUrl: gateway.url, apiKey: wrong, model: 'echo' });
    assert.equal(outcomes(report), 'status:passed models:failed chat:skipped');
    const failed = report.firstFailure!;
    assert.equal(failed.id, 'models');
    assert.equal(failed.httpStatus, 401);
    assert.equal(failed.explanation?.kind, 'authentication');
    assert.equal(failed.explanation?.firstCheck, 'key');
    assert.equal(failed.explanation?.steps[0]?.id, 'key');
    assert.ok(failed.explanation?.fixes.some((f) => f.command === 'modelGateway.setApiKey'));
    assert.ok(failed.gatewayMessage, 'the gateway message is kept');
    // Neither report may carry the key, even if the gateway echoed it.
    const markdown = reportMarkdown(report, undefined, [wrong]);
    const text = problemReport(report, ENV, [wrong]);
    for (const out of [markdown, text]) assert.ok(!out.includes(wrong), 'the key leaked');
    assert.match(text, /1\.139\.1/);
    assert.match(text, new RegExp(gateway.url.replace(/[.:/]/g, '\\$&')));
    assert.match(text, /Model: echo/);
    assert.match(text, /HTTP 401/);
    assert.match(markdown, /401/);
  });

  it('never puts a good key in the report or the problem report', async () => {
    const report = await runSelfTest({ baseUrl: gateway.url, apiKey: key, model: 'no-such-model' });
    const text = `${reportMarkdown(report, undefined, [key])}\n${problemReport(report, ENV, [key])}\n${JSON.stringify(report)}`;
    assert.ok(!text.includes(key));
  });

  it('flags a configured model that the gateway does not list, and the chat step fails with 404 at the model name', async () => {
    const report = await runSelfTest({ baseUrl: gateway.url, apiKey: key, model: 'Echo' });
    assert.equal(outcomes(report), 'status:passed models:warning chat:failed');
    assert.equal(report.modelListed, false);
    assert.match(report.steps[1]!.detail, /"echo"/, 'suggests the exact name');
    const chat = report.firstFailure!;
    assert.equal(chat.id, 'chat');
    assert.equal(chat.httpStatus, 404);
    assert.equal(chat.explanation?.firstCheck, 'model');
    assert.ok(chat.explanation?.fixes.some((f) => f.command === 'modelGateway.pickModel'));
  });

  it('uses the first listed model when none is configured, with a warning', async () => {
    const report = await runSelfTest({ baseUrl: gateway.url, apiKey: key, model: '' });
    assert.equal(outcomes(report), 'status:passed models:warning chat:passed');
    assert.equal(report.chatModel, report.models?.[0]);
    assert.equal(report.ok, true);
  });

  it('diagnoses a missing key at step 2 without a request', async () => {
    const report = await runSelfTest({ baseUrl: gateway.url, model: 'echo' });
    assert.equal(outcomes(report), 'status:passed models:failed chat:skipped');
    assert.equal(report.firstFailure?.explanation?.kind, 'not_configured');
    assert.equal(report.firstFailure?.explanation?.fixes[0]?.command, 'modelGateway.setApiKey');
  });

  it('diagnoses a wrong path prefix in the base URL, starting at the address', async () => {
    const report = await runSelfTest({ baseUrl: `${gateway.url}/api/v1`, apiKey: key, model: 'echo' });
    assert.equal(report.ok, false);
    const failed = report.firstFailure!;
    assert.equal(failed.explanation?.firstCheck, 'address', outcomes(report));
    assert.ok(failed.explanation?.fixes.some((f) => f.command === 'workbench.action.openSettings'));
  });

  it('diagnoses an unreachable address as a connection failure and skips the rest', async () => {
    const report = await runSelfTest({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: key, model: 'echo' });
    assert.equal(outcomes(report), 'status:failed models:skipped chat:skipped');
    assert.equal(report.firstFailure?.explanation?.kind, 'connection');
    assert.equal(report.firstFailure?.explanation?.firstCheck, 'address');
    assert.equal(report.firstFailure?.httpStatus, null);
  });

  it('diagnoses a missing or unusable base URL', async () => {
    for (const baseUrl of ['', 'example.com']) {
      const report = await runSelfTest({ baseUrl, apiKey: key, model: 'echo' });
      assert.equal(outcomes(report), 'status:failed models:skipped chat:skipped', baseUrl);
      assert.equal(report.firstFailure?.explanation?.kind, 'not_configured', baseUrl);
    }
  });
});

// Host (b) of the in-editor suite: code-server's extension host. The test-runner extension
// (dist/test/vscode, from test/vscode/runner) is installed beside the packaged extension, runs the
// suite when the editor starts (the extension host starts only when a client connects, so chromium
// opens the workbench), and writes JSON results; each of its tests is reported here by name.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import type { SuiteResults } from '../vscode/index.ts';
import { buildInEditorSuite } from '../vscode/build.ts';
import { saveFailureArtifacts, saveScreenshot } from './artifacts.ts';
import { mochaCjs, resultsDir } from './paths.ts';
import { poll } from '../support/poll.ts';
import type { EditorSession } from './session.ts';
import { openEditor } from './session.ts';

const resultsPath = join(resultsDir, 'in-editor', 'results.json');

describe('in-editor suite, inside code-server', function () {
  let session: EditorSession | undefined;
  let results: SuiteResults | undefined;

  before(async function () {
    this.timeout(400000);
    const suiteDir = await buildInEditorSuite();
    rmSync(resultsPath, { force: true });
    rmSync(`${resultsPath}.progress`, { force: true });
    session = await openEditor({
      name: 'in-editor',
      // To check the harness alone (no extension packaged yet): MODEL_GATEWAY_EDITOR_WITHOUT_EXTENSION=1.
      withExtension: !process.env.MODEL_GATEWAY_EDITOR_WITHOUT_EXTENSION,
      extensionFolders: [suiteDir],
      // A key put into settings.json by hand under the undeclared modelGateway.apiKey (test/vscode/suite/undeclaredKey.test.ts moves it).
      settings: { 'modelGateway.apiKey': 'sk-suite-handwritten-user-0001' },
      env: { MODEL_GATEWAY_TEST_RESULTS: resultsPath, MODEL_GATEWAY_MOCHA: mochaCjs, ...(process.env.MODEL_GATEWAY_SUITE_GREP ? { MODEL_GATEWAY_SUITE_GREP: process.env.MODEL_GATEWAY_SUITE_GREP } : {}) },
    });
    // Echo the runner's progress lines while waiting, so a hang shows where it is.
    let shown = 0;
    const echoProgress = () => {
      if (!existsSync(`${resultsPath}.progress`)) return;
      const lines = readFileSync(`${resultsPath}.progress`, 'utf8').split('\n').filter(Boolean);
      for (const line of lines.slice(shown)) if (process.env.MODEL_GATEWAY_EDITOR_VERBOSE || !/ (hook|start) /.test(line)) console.log(`      [in-editor] ${line}`);
      shown = lines.length;
    };
    try {
      results = await poll('the in-editor results file', () => {
        echoProgress();
        return existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as SuiteResults) : undefined;
      }, Number(process.env.MODEL_GATEWAY_SUITE_TIMEOUT_MS ?? 300000), 250);
      await saveScreenshot(session.browser.page, 'in-editor', 'workbench-after-suite');
    } catch (error) {
      echoProgress();
      await saveFailureArtifacts('in-editor suite', session.browser.page, session.server);
      throw error;
    }
    // One mocha test per in-editor test, so the output names each of them.
    const suite = this.test!.parent!;
    for (const outcome of results.tests) {
      const test = new Mocha.Test(outcome.fullTitle, function (this: Mocha.Context) {
        if (outcome.state === 'pending') this.skip();
        if (outcome.state === 'failed') throw new Error(outcome.error ?? 'failed');
      });
      suite.addTest(test);
    }
    if (results.failed > 0) await saveFailureArtifacts('in-editor suite', session.browser.page, session.server);
  });

  after(async function () {
    this.timeout(30000);
    await session?.close();
  });

  it('ran in code-server and at least one test passed', function () {
    assert.ok(results, 'no results');
    assert.equal(results.error, undefined, `the suite could not run: ${results.error}`);
    assert.ok(results.passed > 0, 'no in-editor test passed');
    console.log(`      VS Code ${results.vscodeVersion} (${results.host}): ${results.passed} passed, ${results.failed} failed, ${results.pending} pending`);
  });
});

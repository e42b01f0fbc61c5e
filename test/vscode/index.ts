// Runs the in-editor suite (suite/*.test.ts, bundled to suite/*.test.cjs) with mocha inside a VS Code
// extension host. Two hosts call it: @vscode/test-electron through `run()` (extensionTestsPath), and the
// test-runner extension (runner/) inside code-server, which writes the JSON results for the harness.
import { appendFileSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type MochaType from 'mocha';
import * as vscode from 'vscode';

export type TestOutcome = {
  title: string;
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
};

export type SuiteResults = {
  host: string;
  vscodeVersion: string;
  started: string;
  finished: string;
  passed: number;
  failed: number;
  pending: number;
  tests: TestOutcome[];
  /** Set when the suite could not run at all. */
  error?: string;
};

type MochaCtor = new (options?: MochaType.MochaOptions) => MochaType;

/** mocha 12 is an ES module; its CommonJS build is what an extension host can require. */
function loadMocha(): MochaCtor {
  const path = process.env.MODEL_GATEWAY_MOCHA ?? 'mocha/lib/mocha.cjs';
  const loaded = require(path) as MochaCtor | { default: MochaCtor };
  return 'default' in loaded ? loaded.default : loaded;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** One line per event, appended to $MODEL_GATEWAY_TEST_RESULTS.progress so the harness can show where a run is. */
function progress(line: string): void {
  const path = process.env.MODEL_GATEWAY_TEST_RESULTS;
  if (!path) return;
  try {
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(`${path}.progress`, `${new Date().toISOString()} ${line}\n`);
  } catch {
    // progress is a courtesy
  }
}

export async function runSuite(host: string, suiteDir = join(__dirname, 'suite')): Promise<SuiteResults> {
  const started = new Date().toISOString();
  const tests: TestOutcome[] = [];
  progress(`suite starting in ${host} (VS Code ${vscode.version})`);
  const Mocha = loadMocha();
  const grep = process.env.MODEL_GATEWAY_SUITE_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60000, reporter: 'spec', ...(grep ? { grep } : {}) });
  for (const file of readdirSync(suiteDir).filter((f) => f.endsWith('.test.cjs')).sort()) mocha.addFile(join(suiteDir, file));
  await mocha.loadFilesAsync();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('test', (test) => progress(`start ${test.fullTitle()}`));
    runner.on('hook', (hook) => progress(`hook ${hook.fullTitle()}`));
    runner.on('pass', (test) => progress(`passed ${test.fullTitle()}`));
    runner.on('fail', (test, error) => progress(`failed ${test.fullTitle()}: ${error instanceof Error ? error.message : String(error)}`));
    runner.on('pass', (test) => tests.push({ title: test.title, fullTitle: test.fullTitle(), state: 'passed', durationMs: test.duration }));
    runner.on('pending', (test) => tests.push({ title: test.title, fullTitle: test.fullTitle(), state: 'pending' }));
    runner.on('fail', (test, error) =>
      tests.push({ title: test.title, fullTitle: test.fullTitle(), state: 'failed', durationMs: test.duration, error: errorText(error) }),
    );
  });
  return {
    host,
    vscodeVersion: vscode.version,
    started,
    finished: new Date().toISOString(),
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    tests,
  };
}

export function writeResults(path: string, results: SuiteResults): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path + '.tmp', JSON.stringify(results, null, 2));
  // Written whole, then renamed: a reader polling for the file never sees half of it.
  renameSync(path + '.tmp', path);
}

/** The @vscode/test-electron entry (extensionTestsPath): fails the run when a test failed or none ran. */
export async function run(): Promise<void> {
  const results = await runSuite('vscode-test-electron');
  if (process.env.MODEL_GATEWAY_TEST_RESULTS) writeResults(process.env.MODEL_GATEWAY_TEST_RESULTS, results);
  if (results.failed > 0) throw new Error(`${results.failed} of ${results.tests.length} in-editor tests failed`);
  if (results.passed === 0) throw new Error('no in-editor test ran');
}

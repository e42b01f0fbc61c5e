// The test-runner extension: installed next to the extension under test in code-server, it runs the
// bundled in-editor suite once the editor has started and writes the results where the harness waits.
import type * as vscode from 'vscode';
import { runSuite, writeResults } from '../index.ts';
import type { SuiteResults } from '../index.ts';

export function activate(_context: vscode.ExtensionContext): void {
  const resultsPath = process.env.MODEL_GATEWAY_TEST_RESULTS;
  if (!resultsPath) return;
  // Not awaited: activation returns at once and the suite runs beside the rest of the start-up.
  void (async () => {
    let results: SuiteResults;
    try {
      results = await runSuite('code-server');
    } catch (error) {
      const now = new Date().toISOString();
      results = { host: 'code-server', vscodeVersion: '', started: now, finished: now, passed: 0, failed: 0, pending: 0, tests: [], error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    writeResults(resultsPath, results);
  })();
}

export function deactivate(): void {}

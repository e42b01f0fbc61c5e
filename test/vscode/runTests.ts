// Host (a) of the in-editor suite: VS Code desktop through @vscode/test-electron, where it can be
// downloaded (not on these machines: see docs/test-machines.md; here the same suite runs in
// code-server, test/editor/in-editor.test.ts). Builds the extension and the suite, then runs the suite
// with the extension under development loaded. Usage: npm run test:vscode
//   VSCODE_TEST_VERSION=stable|insiders|1.139.1 picks the VS Code build (default: stable).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildInEditorSuite } from './build.ts';

const root = resolve(import.meta.dirname, '../..');

async function main(): Promise<number> {
  execFileSync(process.execPath, [join(root, 'esbuild.js')], { cwd: root, stdio: 'inherit' });
  const suiteDir = await buildInEditorSuite();
  const scratch = mkdtempSync(join(tmpdir(), 'mg-vscode-test-'));
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace, { recursive: true });
  try {
    return await runTests({
      version: process.env.VSCODE_TEST_VERSION ?? 'stable',
      extensionDevelopmentPath: root,
      extensionTestsPath: join(suiteDir, 'index.cjs'),
      extensionTestsEnv: {
        MODEL_GATEWAY_TEST_RESULTS: join(root, 'test-results', 'vscode-test-electron', 'results.json'),
      },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${join(scratch, 'user-data')}`,
      ],
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`test:vscode failed: ${error instanceof Error ? error.message : String(error)}`);
    console.error('VS Code desktop could not be run here; on machines without it, `npm run test:editor` runs the same suite in code-server.');
    process.exit(1);
  },
);

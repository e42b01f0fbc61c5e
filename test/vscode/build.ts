// Bundles the in-editor suite to CommonJS (the extension host requires its code) into dist/test/vscode/:
//   index.cjs         the @vscode/test-electron entry (extensionTestsPath)
//   extension.cjs     the test-runner extension for code-server, with its package.json beside it
//   suite/*.test.cjs  one bundle per suite file, loaded by mocha
// Usage: node test/vscode/build.ts
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
const here = join(root, 'test', 'vscode');
export const outDir = join(root, 'dist', 'test', 'vscode');

const common: esbuild.BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: 'inline',
  logLevel: 'warning',
  external: ['vscode', 'mocha'],
};

export async function buildInEditorSuite(): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'suite'), { recursive: true });
  const suiteFiles = readdirSync(join(here, 'suite')).filter((f) => f.endsWith('.test.ts'));
  await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(here, 'index.ts')], outfile: join(outDir, 'index.cjs') }),
    esbuild.build({ ...common, entryPoints: [join(here, 'runner', 'extension.ts')], outfile: join(outDir, 'extension.cjs') }),
    ...suiteFiles.map((file) =>
      esbuild.build({ ...common, entryPoints: [join(here, 'suite', file)], outfile: join(outDir, 'suite', file.replace(/\.ts$/, '.cjs')) }),
    ),
  ]);
  copyFileSync(join(here, 'runner', 'package.json'), join(outDir, 'package.json'));
  return outDir;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await buildInEditorSuite();
  console.log(`built the in-editor suite into ${outDir}`);
}

// Everything the editor tests need before they start: code-server (installed once into the cache),
// the extension packaged as a .vsix (`npm run package`), and the in-editor suite bundled for the extension host.
// Usage: node test/editor/prepare.ts [--no-package]
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildInEditorSuite } from '../vscode/build.ts';
import { installCodeServer } from './install.ts';
import { repoRoot, vsixPath } from './paths.ts';

export function packageExtension(): string {
  mkdirSync(dirname(vsixPath), { recursive: true });
  const started = Date.now();
  execFileSync('npm', ['run', '--silent', 'package', '--', '--out', vsixPath], { cwd: repoRoot, stdio: 'inherit' });
  console.log(`[editor] packaged the extension: ${vsixPath} (${Date.now() - started} ms)`);
  return vsixPath;
}

export async function prepare(options: { package?: boolean } = {}): Promise<void> {
  await installCodeServer();
  if (options.package !== false) packageExtension();
  await buildInEditorSuite();
}

if (process.argv[1] && process.argv[1] === import.meta.filename) {
  await prepare({ package: !process.argv.includes('--no-package') });
}

/** What a run records of the code it measured, and the bundles its children run. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { cliOptions } from '../esbuild.js';

/** `entry` bundled with dist/cli.cjs's options into bench/results/`out`: a child runs what users run. */
export async function bundled(root: string, entry: string, out: string, keepLines = false): Promise<string> {
  const outfile = join(root, 'bench/results', out);
  await build({ ...cliOptions, ...(keepLines ? { minifyWhitespace: false } : {}), entryPoints: [join(root, entry)], outfile });
  return outfile;
}

export function gitCommit(root: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

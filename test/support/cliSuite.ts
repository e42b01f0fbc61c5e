// Hooks for a suite that runs the bundled CLI (dist/cli.cjs, built once from the current source) against a
// fake upstream and a temporary data folder, both new for each test and removed after it.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { startFakeUpstream, type FakeUpstream } from './fakeUpstream.ts';
import { tempDir } from '../integration/gateway/helpers.ts';
import { ROOT } from '../integration/gateway/serveProcess.ts';

export interface CliSuite {
  readonly upstream: () => FakeUpstream;
  readonly dir: () => string;
}

export function cliSuite(): CliSuite {
  let upstream: FakeUpstream | undefined;
  let dir: string | undefined;
  before(() => execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT }));
  beforeEach(async () => {
    upstream = await startFakeUpstream({});
    dir = tempDir();
  });
  afterEach(async () => {
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return { upstream: () => upstream!, dir: () => dir! };
}

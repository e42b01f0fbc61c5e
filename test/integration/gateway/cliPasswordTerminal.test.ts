// A password typed at a terminal is typed twice (it is not shown, and a slip would leave a password nobody
// knows): the bundled CLI under a real pseudo-terminal (util-linux `script`), as an operator runs it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { tempDir } from './helpers.ts';
import { ROOT, runCli } from './serveProcess.ts';

/** `dist/cli.cjs args` on a terminal, each of `lines` typed once the prompt before it is shown; its output and exit code. */
function onTerminal(args: string[], lines: string[]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, resolve(ROOT, 'dist/cli.cjs'), ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, MODEL_GATEWAY_DATA: '', MODEL_GATEWAY_DATABASE_URL: '' } });
  let output = '';
  let typed = 0;
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    const prompts = output.match(/Password for \S+: |The same again: /g)?.length ?? 0;
    while (typed < prompts && typed < lines.length) child.stdin.write(`${lines[typed++]}\n`);
  });
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

describe('model-gateway CLI: a password at a terminal', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => (dir = tempDir()));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is asked twice: two that differ change nothing, two the same make the user', async () => {
    const differ = await onTerminal(['user', 'create', 'ann', '--data', dir], ['a long password 1', 'a long password 2']);
    assert.equal(differ.code, 2, differ.output);
    assert.match(differ.output, /The same again: [\s\S]*the two passwords typed differ; nothing was changed/);
    assert.doesNotMatch(differ.output, /a long password/, 'never shown');
    assert.doesNotMatch((await runCli(['--data', dir, 'user', 'list'])).stdout, /ann/);

    const same = await onTerminal(['user', 'create', 'ann', '--data', dir], ['a long password 1', 'a long password 1']);
    assert.equal(same.code, 0, same.output);
    assert.match(same.output, /user "ann" created/);
    assert.match((await runCli(['--data', dir, 'user', 'list'])).stdout, /ann/);
  });
});

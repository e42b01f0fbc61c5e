// What the user attaches to a @gateway prompt (#file), read in the real editor: a file too long to send whole goes
// in cut, and the user is told what was cut or left out. Before, a file over 200 KB was dropped without a word, and
// the model answered as if nothing had been attached.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { referenceTexts } from '../../../src/extension/chat/references.ts';
import { activate } from './helpers.ts';

describe('@gateway attachments', () => {
  let api: ModelGatewayApi;
  let dir: string;

  before(async () => {
    ({ api } = await activate());
    dir = mkdtempSync(join(tmpdir(), 'mg-suite-refs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const attached = (file: string): vscode.ChatPromptReference => ({ id: 'vscode.file', value: vscode.Uri.file(join(dir, file)) });

  it('a long file is sent cut, a small one whole, and the note names what was cut', async () => {
    writeFileSync(join(dir, 'big.log'), 'line of a long log\n'.repeat(20_000)); // 380 KB
    writeFileSync(join(dir, 'small.ts'), 'export const small = 1;\n');
    const read = await referenceTexts([attached('small.ts'), attached('big.log')], api.services.log);
    assert.deepEqual(read.references.map((r) => r.label.split('/').pop()), ['big.log', 'small.ts']);
    const [big, small] = read.references;
    assert.ok(big!.text.startsWith('line of a long log\n'), 'the start of the long file is sent');
    assert.ok(big!.text.length < 60_000, `${big!.text.length} characters sent`);
    assert.equal(small!.text, 'export const small = 1;\n');
    assert.deepEqual(read.notes.map((n) => [n.label.split('/').pop(), n.reason]), [['big.log', 'cut']]);
  });
});

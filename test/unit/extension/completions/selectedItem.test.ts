import assert from 'node:assert/strict';
import { acceptItem } from '../../../../src/extension/completions/selectedItem.ts';
import { buildContext } from '../../../../src/extension/completions/context.ts';

describe('completion beside the suggest widget: the selected item accepted first', () => {
  it('puts the item in its range and the cursor after it, so the model continues the item', () => {
    const text = 'console.\nnext line\n';
    const dot = text.indexOf('.');
    // VS Code's example: the item ".log" replaces the "." already typed.
    const accepted = acceptItem(text, { start: dot, end: dot + 1, text: '.log' });
    assert.deepEqual(accepted, { text: 'console.log\nnext line\n', offset: 'console.log'.length });
    const ctx = buildContext({ path: 'a.ts', languageId: 'typescript', ...accepted, openFiles: [] });
    assert.equal(ctx.prefix, 'console.log');
    assert.equal(ctx.suffix, '\nnext line\n');
  });

  it('keeps what follows the range (an item chosen in the middle of a word)', () => {
    const text = 'let x = greeM;';
    const start = text.indexOf('greeM');
    const accepted = acceptItem(text, { start, end: start + 4, text: 'greetingMessage' });
    assert.equal(accepted.text, 'let x = greetingMessageM;');
    assert.equal(accepted.text.slice(0, accepted.offset), 'let x = greetingMessage');
  });
});

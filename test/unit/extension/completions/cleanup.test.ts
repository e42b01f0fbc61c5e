import assert from 'node:assert/strict';
import { cleanCompletion, dropPrefixOverlap, dropSuffixOverlap, stripCodeFences } from '../../../../src/extension/completions/cleanup.ts';
import { MULTI_LINE, SINGLE_LINE } from '../../../../src/extension/completions/lineMode.ts';

describe('completion clean-up', () => {
  it('takes the code out of a fenced block, with or without a language, closed or not', () => {
    assert.equal(stripCodeFences('```ts\nreturn a + b;\n```'), 'return a + b;');
    assert.equal(stripCodeFences('Here it is:\n```\nx()\ny()\n```\nDone.'), 'x()\ny()');
    assert.equal(stripCodeFences('```python\nprint(1)'), 'print(1)');
    assert.equal(stripCodeFences('`a + b`'), 'a + b');
    assert.equal(stripCodeFences('a + b'), 'a + b');
  });

  it('drops the current line when the answer repeats it from its start', () => {
    assert.equal(dropPrefixOverlap('  const total = a + b;', 'function f() {\n  const total = '), 'a + b;');
  });

  it('drops a longer repeated tail of the prefix, but not a short accidental one', () => {
    assert.equal(dropPrefixOverlap('items) {\n  return 1;', 'for (const x of items) {\n  '), 'return 1;');
    assert.equal(dropPrefixOverlap('x of items) {\n', 'for (const x of items) {\n'), '');
    assert.equal(dropPrefixOverlap('e + 1', 'const e'), 'e + 1');
  });

  it('drops the closing text the editor already has after the cursor', () => {
    assert.equal(dropSuffixOverlap('  return a + b;\n}', '\n}\n\nexport {}'), '  return a + b;');
    assert.equal(dropSuffixOverlap('a, b)', ')'), 'a, b');
    assert.equal(dropSuffixOverlap('x + y;', ';\nconst z = 1;'), 'x + y', 'the whole first line after the cursor, even one character');
    assert.equal(dropSuffixOverlap('x + y;', '; // done'), 'x + y;', 'one character that is not the whole first line: kept');
    assert.equal(dropSuffixOverlap('a + b', ''), 'a + b');
  });

  it('cleans a chat answer: fences, repeated line, suffix and the marker; one line when asked', () => {
    const text = cleanCompletion({
      answer: '```typescript\nconst total = a + b;<FILL_HERE>\n```',
      prefix: 'function f(a, b) {\n  const total = ',
      suffix: '\n}',
      shape: SINGLE_LINE,
      fromChat: true,
    });
    assert.equal(text, 'a + b;');
  });

  it('keeps a block for a multi-line request and cuts a single-line one at the first line', () => {
    const answer = 'const a = 1;\nconst b = 2;\n';
    assert.equal(cleanCompletion({ answer, prefix: '{\n', suffix: '', shape: MULTI_LINE, fromChat: false }), 'const a = 1;\nconst b = 2;');
    assert.equal(cleanCompletion({ answer, prefix: '{\n', suffix: '', shape: SINGLE_LINE, fromChat: false }), 'const a = 1;');
  });

  it('leaves nothing when nothing useful is left', () => {
    assert.equal(cleanCompletion({ answer: '```\n```', prefix: 'x = ', suffix: '', shape: SINGLE_LINE, fromChat: true }), '');
    assert.equal(cleanCompletion({ answer: '   \n', prefix: 'x = ', suffix: '', shape: SINGLE_LINE, fromChat: false }), '');
  });
});

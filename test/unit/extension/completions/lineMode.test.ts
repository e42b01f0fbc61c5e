import assert from 'node:assert/strict';
import { completionShape } from '../../../../src/extension/completions/lineMode.ts';

describe('single line or block', () => {
  it('finishes the line when the cursor is after text mid-block', () => {
    const shape = completionShape('  const total = ', '', 'function f() {');
    assert.equal(shape.multiline, false);
    assert.deepEqual(shape.stop, ['\n']);
  });

  it('finishes the line when text follows the cursor', () => {
    assert.equal(completionShape('', 'return x;', 'if (a) {').multiline, false);
  });

  it('writes a block on an empty line after an opening brace, colon or arrow', () => {
    assert.equal(completionShape('    ', '', 'function sum(a, b) {').multiline, true);
    assert.equal(completionShape('    ', '', 'def sum(a, b):').multiline, true);
    assert.equal(completionShape('', '', 'const f = () =>').multiline, true);
    assert.equal(completionShape('  ', '}', 'if (ready) { // go').multiline, true);
  });

  it('keeps to one line on an empty line elsewhere', () => {
    assert.equal(completionShape('', '', 'const a = 1;').multiline, false);
    assert.equal(completionShape('', '', '').multiline, false);
  });

  it('asks for more tokens for a block, and never more than four stop sequences', () => {
    const line = completionShape('x', '', '');
    const block = completionShape('', '', 'class A {');
    assert.ok(block.maxTokens > line.maxTokens);
    assert.ok(block.stop.length <= 4 && line.stop.length <= 4);
  });
});

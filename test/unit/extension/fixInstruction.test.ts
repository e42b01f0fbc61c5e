// The quick fix's instruction: the problems in the editor's words, with their line, source and code.
import assert from 'node:assert/strict';
import { fixInstruction } from '../../../src/extension/editSelection/fixInstruction.ts';

describe('quick fix: the instruction', () => {
  it('says one problem with its line, source and code', () => {
    assert.equal(
      fixInstruction([{ message: "Type 'string' is not assignable to type 'number'. ", source: 'ts', code: 2322, line: 4 }]),
      "Fix this problem that the editor reports, changing as little as possible:\n- line 5, ts(2322): Type 'string' is not assignable to type 'number'.",
    );
  });

  it('lists several, with a code given as a link target or none at all', () => {
    const said = fixInstruction([
      { message: 'no-unused-vars', source: 'eslint', code: { value: 'no-unused-vars' }, line: 0 },
      { message: 'Missing semicolon.', line: 1 },
    ]);
    assert.equal(said, 'Fix these problems that the editor reports, changing as little as possible:\n- line 1, eslint(no-unused-vars): no-unused-vars\n- line 2: Missing semicolon.');
  });
});

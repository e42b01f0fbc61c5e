// "Edit Selection with Instructions": what the model is asked, and how its answer becomes the replacement.
import assert from 'node:assert/strict';
import { clipAfter, clipBefore, editPrompt } from '../../../src/extension/editSelection/prompt.ts';
import { replacementFrom } from '../../../src/extension/editSelection/answer.ts';

describe('edit selection: the request', () => {
  it('gives the file, the code around the selection, the selection and the instruction', () => {
    const [system, user] = editPrompt({ instruction: ' add types ', languageId: 'typescript', path: 'src/sum.ts', before: 'const a = 1;\n', selected: 'function sum(x, y) {\n  return x + y;\n}\n', after: 'export { sum };' });
    assert.equal(system!.role, 'system');
    assert.match(String(system!.content), /nothing else: no explanation, no code fences/);
    const text = String(user!.content);
    assert.match(text, /^File: src\/sum\.ts \(typescript\)\n\nCode before the selection:\n```typescript\nconst a = 1;\n```/);
    assert.match(text, /The selection:\n```typescript\nfunction sum\(x, y\) \{\n  return x \+ y;\n\}\n```/);
    assert.match(text, /Code after the selection:\n```typescript\nexport \{ sum \};\n```\n\nInstruction: add types$/);
  });

  it('says where the selection starts or ends the file, and fences Markdown so its own fences stay inside', () => {
    const text = String(editPrompt({ instruction: 'shorter', languageId: 'markdown', path: 'README.md', before: '', selected: '```sh\nnpm test\n```\n', after: '' })[1]!.content);
    assert.match(text, /The selection starts the file\./);
    assert.match(text, /The selection ends the file\./);
    assert.match(text, /~~~markdown\n```sh\nnpm test\n```\n~~~/);
  });
});

describe('edit selection: the context, clipped', () => {
  const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

  it('keeps the code nearest the selection, from a line start before it and to a line end after it', () => {
    const before = lines(100, 'before');
    const clipped = clipBefore(before, 200);
    assert.ok(clipped.length <= 200 && before.endsWith(clipped), clipped);
    assert.match(clipped, /^before line \d+\n/);
    const after = lines(100, 'after');
    const kept = clipAfter(after, 200);
    assert.ok(kept.length <= 200 && after.startsWith(kept), kept);
    assert.match(kept, /after line \d+\n$/);
  });

  it('leaves short context alone, and cuts a single long line where it must', () => {
    assert.equal(clipBefore('a\nb\n', 200), 'a\nb\n');
    assert.equal(clipBefore('x'.repeat(500), 200), 'x'.repeat(200));
    assert.equal(clipAfter('y'.repeat(500), 200), 'y'.repeat(200));
  });
});

describe('edit selection: the replacement', () => {
  it('takes the code of a fenced block, drops reasoning, keeps the indentation', () => {
    const answer = '<think>add types</think>Here it is:\n```ts\n  function sum(x: number, y: number): number {\n    return x + y;\n  }\n```\nDone.';
    assert.equal(replacementFrom(answer, '  function sum(x, y) {\n    return x + y;\n  }\n'), '  function sum(x: number, y: number): number {\n    return x + y;\n  }\n');
  });

  it("keeps the selection's final line break as it was, and gives nothing for an empty answer", () => {
    assert.equal(replacementFrom('\nconst b = 2;\n\n', 'const b = 1;'), 'const b = 2;');
    assert.equal(replacementFrom('const b = 2;', 'const b = 1;\n'), 'const b = 2;\n');
    assert.equal(replacementFrom('<think>hmm</think>  \n', 'x'), '');
  });
});

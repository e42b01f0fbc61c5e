import assert from 'node:assert/strict';
import { buildContext, headOf, windowAround } from '../../../../src/extension/completions/context.ts';
import { CHARS_PER_TOKEN } from '../../../../src/extension/tokens.ts';
import { fimRequest, chatFillRequest, neighbourHeader, FILL_MARKER } from '../../../../src/extension/completions/requests.ts';
import { SINGLE_LINE } from '../../../../src/extension/completions/lineMode.ts';

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

describe('completion context and requests', () => {
  it('sends a small file whole: prefix before the cursor, suffix after', () => {
    const text = 'function f() {\n  return \n}\n';
    const offset = text.indexOf('return ') + 'return '.length;
    const ctx = buildContext({ path: 'a.ts', languageId: 'typescript', text, offset, openFiles: [] });
    assert.equal(ctx.prefix, 'function f() {\n  return ');
    assert.equal(ctx.suffix, '\n}\n');
  });

  it('keeps a big file within the budget, nearest the cursor, starting and ending at line boundaries', () => {
    const text = lines(2000, 'before') + 'CURSOR' + '\n' + lines(2000, 'after');
    const offset = text.indexOf('CURSOR');
    const ctx = buildContext({ path: 'a.ts', languageId: 'typescript', text, offset, openFiles: [], budgetTokens: 500 });
    assert.ok(ctx.prefix.length + ctx.suffix.length <= 500 * CHARS_PER_TOKEN);
    assert.ok(ctx.prefix.endsWith('before line 1999\n'));
    assert.ok(ctx.prefix.startsWith('before line '), 'starts at a line start');
    assert.ok(ctx.suffix.startsWith('CURSOR\nafter line 0'));
    assert.ok(ctx.suffix.endsWith('\n'), 'ends at a line end');
    assert.ok(ctx.prefix.length > ctx.suffix.length, 'most of it before the cursor');
  });

  it('reads only a window of a big file around the cursor, and the start of open ones, and makes the same context as from their whole text', () => {
    const line = (i: number) => `const value${i} = compute(${i}, "${'x'.repeat(i % 50)}");\n`;
    const big = Array.from({ length: 200_000 }, (_, i) => line(i)).join(''); // ~10 MB
    const other = Array.from({ length: 50_000 }, (_, i) => `// neighbour ${i}\n`).join('');
    const reads: Array<[number, number]> = [];
    const readerOf = (text: string) => (start: number, end: number) => {
      reads.push([start, end]);
      return text.slice(start, end);
    };
    for (const offset of [0, 17, 5_000, big.length / 2 + 3, big.length - 40, big.length]) {
      reads.length = 0;
      const around = windowAround(readerOf(big), offset);
      const openFiles = [{ path: 'b.ts', text: headOf(readerOf(other)) }];
      const windowed = buildContext({ path: 'a.ts', languageId: 'typescript', text: around.text, offset: around.offset, openFiles });
      const whole = buildContext({ path: 'a.ts', languageId: 'typescript', text: big, offset, openFiles: [{ path: 'b.ts', text: other }] });
      assert.deepEqual(windowed, whole, `the same context at offset ${offset}`);
      for (const [start, end] of reads) assert.ok(end - start <= 4 * 2048 * CHARS_PER_TOKEN, `read ${end - start} characters, not the file`);
    }
  });

  it('adds open files of the language only while the budget allows, never the file itself', () => {
    const text = 'const a = ';
    const small = buildContext({ path: 'a.ts', languageId: 'typescript', text, offset: text.length, openFiles: [{ path: 'a.ts', text: 'self' }, { path: 'b.ts', text: lines(5, 'b') }], budgetTokens: 2048 });
    assert.deepEqual(small.neighbours.map((n) => n.path), ['b.ts']);
    const full = lines(3000, 'x');
    const shared = buildContext({ path: 'a.ts', languageId: 'typescript', text: full, offset: full.length, openFiles: [{ path: 'b.ts', text: full }], budgetTokens: 500 });
    const used = shared.prefix.length + shared.suffix.length + shared.neighbours.reduce((n, f) => n + f.text.length + f.path.length, 0);
    assert.equal(shared.neighbours.length, 1);
    assert.ok(used <= 500 * CHARS_PER_TOKEN, `${used} characters`);
    const crowded = buildContext({ path: 'a.ts', languageId: 'typescript', text: full, offset: full.length, openFiles: [{ path: 'b.ts', text: lines(5, 'b') }], budgetTokens: 100 });
    assert.deepEqual(crowded.neighbours, [], 'no room left after the current file');
  });

  it('puts open files before the FIM prompt as comments, and the cursor between prompt and suffix', () => {
    const ctx = { path: 'a.py', languageId: 'python', prefix: 'def f():\n    return ', suffix: '\n', neighbours: [{ path: 'b.py', text: 'X = 1\n' }] };
    const body = fimRequest('m', ctx, SINGLE_LINE);
    assert.equal(body.prompt, '# Path: b.py\n# X = 1\n# Path: a.py\ndef f():\n    return ');
    assert.equal(body.suffix, '\n');
    assert.deepEqual(body.stop, ['\n']);
    assert.equal(body.max_tokens, SINGLE_LINE.maxTokens);
    assert.equal(neighbourHeader({ ...ctx, languageId: 'plaintext' }), '', 'no comment syntax: no neighbours');
  });

  it('asks a chat model for the text at a marker placed at the cursor', () => {
    const ctx = { path: 'a.ts', languageId: 'typescript', prefix: 'const a = ', suffix: ';\n', neighbours: [] };
    const body = chatFillRequest('m', ctx, SINGLE_LINE);
    const user = body.messages.at(-1)!.content as string;
    assert.ok(user.includes(`const a = ${FILL_MARKER};\n`));
    assert.equal(body.messages[0]!.role, 'system');
  });
});

// The commit message's prompt (the diff cut to a budget file by file, recent subjects, the author's draft)
// and how a model's answer is made into the message.
import assert from 'node:assert/strict';
import { commitMessagePrompt, fitDiff, splitDiff } from '../../../src/extension/commitMessage/prompt.ts';
import { commitMessageFrom } from '../../../src/extension/commitMessage/answer.ts';

const fileDiff = (path: string, lines: number): string =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1,1 +1,${lines} @@\n${Array.from({ length: lines }, (_, i) => `+line ${i} of ${path}`).join('\n')}\n`;

describe('commit message: the diff the model is given', () => {
  it('splits a diff at each file and names each by its new path', () => {
    const diff = fileDiff('src/a.ts', 2) + fileDiff('docs/b c.md', 1);
    assert.deepEqual(splitDiff(diff).map((f) => f.path), ['src/a.ts', 'docs/b c.md']);
    assert.equal(splitDiff(diff).map((f) => f.text).join(''), diff);
    assert.deepEqual(splitDiff(''), []);
  });

  it('keeps each file whole where it fits and names the others instead of cutting one mid-hunk', () => {
    const small = fileDiff('src/small.ts', 3);
    const big = fileDiff('src/big.ts', 400);
    const after = fileDiff('src/after.ts', 2);
    const fitted = fitDiff(small + big + after, small.length + after.length + 10);
    assert.ok(fitted.startsWith(small + after.trimEnd()), fitted.slice(0, 300));
    assert.ok(!fitted.includes('line 0 of src/big.ts'), 'the big file is not cut in');
    assert.match(fitted, /More files changed \(diff left out for length\): src\/big\.ts$/);
  });

  it('names lock files and other generated files without their diff', () => {
    const fitted = fitDiff(fileDiff('src/a.ts', 1) + fileDiff('package-lock.json', 50) + fileDiff('web/app.min.js', 5));
    assert.ok(fitted.includes('+line 0 of src/a.ts'));
    assert.ok(!fitted.includes('line 0 of package-lock.json'));
    assert.match(fitted, /Generated files changed too \(diff not shown\): package-lock\.json, web\/app\.min\.js/);
  });

  it('gives the beginning of a single file larger than the whole budget, said to be cut', () => {
    const fitted = fitDiff(fileDiff('src/huge.ts', 2000), 1000);
    assert.ok(fitted.length < 1200, String(fitted.length));
    assert.ok(fitted.includes('+line 0 of src/huge.ts'));
    assert.match(fitted, /the rest of this file's diff is left out/);
  });

  it('asks with the changes, the recent subjects for style and the draft as the intent', () => {
    const [system, user] = commitMessagePrompt({ diff: fileDiff('src/a.ts', 1), staged: true, recentSubjects: ['feat(api): add keys', '', 'fix: typo'], draft: '  fix the login bug ' });
    assert.equal(system!.role, 'system');
    assert.match(String(system!.content), /imperative/);
    const text = String(user!.content);
    assert.match(text, /^The staged changes:\n\ndiff --git a\/src\/a\.ts/);
    assert.match(text, /newest first:\n- feat\(api\): add keys\n- fix: typo\n/);
    assert.match(text, /keep its intent:\nfix the login bug\n/);
    const unstaged = String(commitMessagePrompt({ diff: fileDiff('x', 1), staged: false, recentSubjects: [], draft: '' })[1]!.content);
    assert.match(unstaged, /^The changes in the working tree \(nothing is staged\):/);
    assert.ok(!unstaged.includes('Recent commit messages') && !unstaged.includes('started the message'));
  });
});

describe('commit message: the answer made into the message', () => {
  it('drops reasoning in think tags, a fence, a label and quotes around the whole message', () => {
    assert.equal(commitMessageFrom('<think>they changed a.ts</think>\n\nFix the login bug'), 'Fix the login bug');
    assert.equal(commitMessageFrom('```text\nAdd keys page\n\nKeys can be rotated.\n```'), 'Add keys page\n\nKeys can be rotated.');
    assert.equal(commitMessageFrom('**Commit message:** Add keys page'), 'Add keys page');
    assert.equal(commitMessageFrom('"Add keys page"'), 'Add keys page');
  });

  it('keeps the words, tidies trailing spaces and runs of blank lines', () => {
    assert.equal(commitMessageFrom('Add "quoted" name   \n\n\n\nBody line  '), 'Add "quoted" name\n\nBody line');
    assert.equal(commitMessageFrom('"a" and "b"'), '"a" and "b"');
    assert.equal(commitMessageFrom('   '), '');
  });
});

describe('commit message: private files', () => {
  it('names a file where secrets live and never sends its diff', () => {
    const env = 'diff --git a/.env b/.env\nnew file mode 100644\n--- /dev/null\n+++ b/.env\n@@ -0,0 +1 @@\n+API_TOKEN=sk-live-123\n';
    const fitted = fitDiff(env + fileDiff('src/a.ts', 2), 10_000, (path) => path === '.env');
    assert.ok(!fitted.includes('sk-live-123'), fitted);
    assert.match(fitted, /Private files changed too \(diff not shown\): \.env/);
    assert.match(fitted, /line 0 of src\/a\.ts/);
  });
});

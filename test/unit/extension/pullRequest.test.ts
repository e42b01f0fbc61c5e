// Write Pull Request Description without the editor: what a branch committed since it left another (a real git
// repository: commits only, against their merge base), what the model is asked, and its answer as a title and a body.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { committedSince } from '../../../src/extension/review/changesDiff.ts';
import { describePrompt, descriptionFrom } from '../../../src/extension/pullRequest/describePrompt.ts';
import { commitFiles, repositoryWithCommit, type TestRepository } from '../../support/gitRepository.ts';

describe('pull request description', () => {
  let repo: TestRepository;
  const signal = new AbortController().signal;

  before(() => {
    repo = repositoryWithCommit('mg-pr-', { path: 'cart.ts', content: 'export const total = 0;\n' }, 'first');
    repo.git('checkout', '-q', '-b', 'feature/rounding');
    commitFiles(repo, { 'cart.ts': 'export const total = Math.round(0);\n' }, 'Round the total');
    commitFiles(repo, { 'cart.test.ts': 'test("rounds", () => {});\n' }, 'Test the rounding');
    // main moves on after the branch left it: its commit is not the branch's.
    repo.git('checkout', '-q', 'main');
    commitFiles(repo, { 'README.md': 'main only\n' }, 'Docs on main');
    repo.git('checkout', '-q', 'feature/rounding');
    // Not committed: not in the pull request.
    repo.write('cart.ts', 'export const total = Math.round(1);\n');
  });

  after(() => rmSync(repo.dir, { recursive: true, force: true }));

  it("reads the branch's own commits, oldest first, and their diff against the merge base, without uncommitted changes", async () => {
    const changes = await committedSince('git', repo.dir, signal, 'main');
    assert.ok(changes);
    assert.equal(changes.branch, 'feature/rounding');
    assert.deepEqual(changes.subjects, ['Round the total', 'Test the rounding']);
    assert.match(changes.diff, /^\+export const total = Math\.round\(0\);$/m);
    assert.match(changes.diff, /^diff --git a\/cart\.test\.ts b\/cart\.test\.ts$/m);
    assert.doesNotMatch(changes.diff, /README\.md/, "main's own commit is not the branch's");
    assert.doesNotMatch(changes.diff, /Math\.round\(1\)/, 'uncommitted changes are not in the pull request');
    assert.equal(await committedSince('git', repo.dir, signal, 'feature/rounding'), null, 'no commits of its own');
    await assert.rejects(committedSince('git', repo.dir, signal, '--output=/tmp/x'), /is not a branch/);
  });

  it('asks for a title and a description from the commits and the fitted diff, private files named only', () => {
    const diff = 'diff --git a/cart.ts b/cart.ts\n--- a/cart.ts\n+++ b/cart.ts\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-K=1\n+K=sk-secret-value\n';
    const messages = describePrompt({ branch: 'feature/x', base: 'main', subjects: ['One', 'Two'], diff, instructions: 'Write in British English.' }, 10_000, (path) => path === '.env');
    assert.match(String(messages[0]!.content), /description of a pull request/);
    assert.match(String(messages[0]!.content), /British English/);
    const user = String(messages[1]!.content);
    assert.match(user, /^The branch feature\/x into main\.\n\nIts commits, oldest first:\n- One\n- Two\n/);
    assert.match(user, /\+b/);
    assert.ok(!user.includes('sk-secret-value') && user.includes('.env'), 'the private file is named, never shown');
    const many = describePrompt({ branch: 'b', base: 'main', subjects: Array.from({ length: 100 }, (_, i) => `c${i}`), diff: '' });
    assert.match(String(many[1]!.content), /- c29\n- \(40 more\)\n- c70\n/);
  });

  it('reads the title off the first line, whatever the model wrapped it in', () => {
    assert.deepEqual(descriptionFrom('Round the cart total\n\nRounds it.\n\n## Changes\n- cart.ts'), { title: 'Round the cart total', body: 'Rounds it.\n\n## Changes\n- cart.ts' });
    assert.deepEqual(descriptionFrom('```markdown\n# Round the total\n\nBody\n```'), { title: 'Round the total', body: 'Body' });
    assert.deepEqual(descriptionFrom('<think>hmm</think>**Title:** Round it\nBody'), { title: 'Round it', body: 'Body' });
    assert.deepEqual(descriptionFrom(''), { title: '', body: '' });
  });
});

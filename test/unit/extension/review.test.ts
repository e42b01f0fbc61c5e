// Review Changes: the uncommitted changes as git shows them (a real repository), numbered by their lines in the
// new file, cut to a budget, and the reviewing model's answer read back into findings placed on those lines.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberedDiff, parseDiff, newFileDiff, type FileDiff } from '../../../src/extension/review/numberedDiff.ts';
import { FindingsReader, NO_FINDINGS, parseFindings, parseReviewAsk, reviewPrompt } from '../../../src/extension/review/reviewPrompt.ts';
import { branchNames, changesDiff } from '../../../src/extension/review/changesDiff.ts';
import { lineAfterEdit } from '../../../src/extension/review/followEdits.ts';
import { budgetChars } from '../../../src/extension/chat/inputBudget.ts';
import { repositoryWithCommit, type TestRepository } from '../../support/gitRepository.ts';

const lines = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';
const signal = new AbortController().signal;

/** Every numbered line of the parsed diff, checked against the file on disk: its number is its line there. */
function assertNumbersMatchFiles(files: readonly FileDiff[], dir: string): number {
  let checked = 0;
  for (const file of files) {
    const onDisk = readFileSync(join(dir, file.path), 'utf8').split('\n');
    for (const hunk of file.hunks) {
      for (const row of hunk.text.split('\n').slice(1)) {
        const numbered = /^ *(\d+) [+ ] (.*)$/.exec(row);
        if (!numbered) continue;
        assert.equal(onDisk[Number(numbered[1]) - 1], numbered[2], `${file.path}:${numbered[1]}`);
        checked++;
      }
    }
  }
  return checked;
}

describe('review: the uncommitted changes, from git', () => {
  let repo: TestRepository;
  afterEach(() => rmSync(repo.dir, { recursive: true, force: true }));

  it('holds staged and unstaged changes against HEAD and untracked files as new, each line numbered as in the file', async () => {
    repo = repositoryWithCommit('mg-review-', { path: 'a.ts', content: lines(60, 'a') }, 'first');
    repo.write('gone.ts', 'bye\n');
    repo.git('add', 'gone.ts');
    repo.git('commit', '-q', '-m', 'second');
    // a.ts: a line changed near the top (staged), one inserted and one removed further down (not staged).
    const a = lines(60, 'a').split('\n');
    a[2] = 'a line 3, changed';
    writeFileSync(join(repo.dir, 'a.ts'), a.join('\n'));
    repo.git('add', 'a.ts');
    a.splice(40, 0, 'inserted at 41');
    a.splice(50, 1);
    writeFileSync(join(repo.dir, 'a.ts'), a.join('\n'));
    repo.git('rm', '-q', 'gone.ts');
    repo.write('new.ts', 'export const fresh = 1;\nexport const two = 2;');
    repo.write('.gitignore', 'ignored.log\n');
    repo.write('ignored.log', 'not a change\n');

    const files = parseDiff(await changesDiff('git', repo.dir, signal));
    assert.deepEqual(files.map((f) => [f.path, f.deleted]).sort(), [['.gitignore', false], ['a.ts', false], ['gone.ts', true], ['new.ts', false]]);
    const aDiff = files.find((f) => f.path === 'a.ts')!;
    assert.ok(aDiff.hunks.some((h) => h.text.includes('    3 + a line 3, changed')), 'the staged change is there, on line 3');
    assert.ok(aDiff.hunks.some((h) => h.text.includes('   41 + inserted at 41')), 'the unstaged one on line 41 of the working file');
    assert.ok(aDiff.hunks.some((h) => h.text.includes('      - a line 50')), 'a removed line has no number');
    const fresh = files.find((f) => f.path === 'new.ts')!;
    assert.deepEqual(fresh.hunks.map((h) => [h.first, h.last]), [[1, 2]]);
    assert.ok(assertNumbersMatchFiles(files.filter((f) => !f.deleted), repo.dir) >= 10);

    const { text, shown, leftOut } = numberedDiff(files, 100_000);
    assert.deepEqual(leftOut, ['gone.ts'], 'a deleted file has no line to point at');
    assert.deepEqual(shown.map((f) => f.path).sort(), ['.gitignore', 'a.ts', 'new.ts']);
    assert.match(text, /^File: /m);
  });

  it('reads the paths whatever the user\'s diff.noprefix or diff.mnemonicPrefix say', async () => {
    repo = repositoryWithCommit('mg-review-prefix-', { path: 'src.ts', content: 'a\n' }, 'first');
    repo.write('src.ts', 'b\n');
    repo.git('config', 'diff.mnemonicPrefix', 'true');
    assert.deepEqual(parseDiff(await changesDiff('git', repo.dir, signal)).map((f) => f.path), ['src.ts']);
    repo.git('config', 'diff.noprefix', 'true');
    assert.deepEqual(parseDiff(await changesDiff('git', repo.dir, signal)).map((f) => f.path), ['src.ts']);
  });

  it('works in a repository without a commit yet (against the empty tree)', async () => {
    repo = repositoryWithCommit('mg-review-unborn-', { path: 'x.ts', content: 'x\n' }, 'first');
    rmSync(join(repo.dir, '.git'), { recursive: true, force: true });
    repo.git('init', '-q', '-b', 'main');
    repo.write('staged.ts', 'one\ntwo\n');
    repo.git('add', 'staged.ts');
    const files = parseDiff(await changesDiff('git', repo.dir, signal));
    assert.deepEqual(files.map((f) => f.path).sort(), ['staged.ts', 'x.ts']);
    assertNumbersMatchFiles(files, repo.dir);
  });

  it('since a branch: the current branch\'s commits and uncommitted changes against the merge base, not what the branch left since', async () => {
    repo = repositoryWithCommit('mg-review-branch-', { path: 'base.ts', content: lines(5, 'base') }, 'first');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('feature.ts', 'export const feature = true;\n');
    repo.git('add', 'feature.ts');
    repo.git('commit', '-q', '-m', 'feature');
    repo.write('wip.ts', 'export const wip = 1;\n');
    repo.git('checkout', '-q', 'main');
    repo.write('later-on-main.ts', 'export const later = 1;\n');
    repo.git('add', 'later-on-main.ts');
    repo.git('commit', '-q', '-m', 'main moves on');
    repo.git('checkout', '-q', 'feature');
    const files = parseDiff(await changesDiff('git', repo.dir, signal, 'main'));
    assert.deepEqual(files.map((f) => f.path).sort(), ['feature.ts', 'wip.ts']);
    assert.deepEqual(parseDiff(await changesDiff('git', repo.dir, signal)).map((f) => f.path), ['wip.ts'], 'without since: the uncommitted only');
    assert.deepEqual(await branchNames('git', repo.dir, signal), ['feature', 'main']);
    await assert.rejects(changesDiff('git', repo.dir, signal, 'no-such-branch'), /no-such-branch/);
    await assert.rejects(changesDiff('git', repo.dir, signal, '--output=/tmp/x'), /is not a branch/);
  });

  it('says what git said when it fails (not a repository)', async () => {
    repo = repositoryWithCommit('mg-review-broken-', { path: 'x.ts', content: 'x\n' }, 'first');
    rmSync(join(repo.dir, '.git'), { recursive: true, force: true });
    await assert.rejects(changesDiff('git', repo.dir, signal), /not a git repository/i);
  });
});

describe('review: the numbered diff', () => {
  const file = (path: string, n: number) => newFileDiff(path, lines(n, path));

  it('keeps files whole in order while they fit, and names the rest, generated and binary ones', () => {
    const binary = 'diff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n';
    const files = parseDiff(file('src/small.ts', 3) + file('src/big.ts', 500) + file('package-lock.json', 5) + binary + file('src/last.ts', 2));
    const { shown, leftOut, text } = numberedDiff(files, 2_000);
    assert.deepEqual(shown.map((f) => f.path), ['src/small.ts', 'src/last.ts']);
    assert.deepEqual(leftOut, ['src/big.ts', 'package-lock.json', 'logo.png']);
    assert.ok(text.length <= 2_000);
    assert.match(text, /File: src\/small\.ts\n@@ -0,0 \+1,3 @@\n {4}1 \+ src\/small\.ts line 1\n/);
  });

  it('never shows a file where secrets live: it is named among the rest', () => {
    const files = parseDiff(newFileDiff('config/.env', 'API_TOKEN=sk-live-123\n') + file('src/a.ts', 2));
    const { text, leftOut } = numberedDiff(files, 10_000, (path) => path.endsWith('.env'));
    assert.deepEqual(leftOut, ['config/.env']);
    assert.ok(!text.includes('sk-live-123'));
  });

  it('a hunk that empties a file points at nothing; an empty new file has no hunk', () => {
    const emptied = parseDiff('diff --git a/e.ts b/e.ts\n--- a/e.ts\n+++ b/e.ts\n@@ -1,2 +0,0 @@\n-a\n-b\n')[0]!;
    assert.ok(emptied.hunks[0]!.last < emptied.hunks[0]!.first);
    assert.deepEqual(parseDiff(newFileDiff('empty.ts', ''))[0]!.hunks, []);
  });
});

describe('review: the prompt and the findings', () => {
  const files = parseDiff(
    'diff --git a/src/app.ts b/src/app.ts\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -10,3 +10,4 @@\n ctx\n+added one\n+added two\n ctx\n' +
      'diff --git a/lib/util/strings.ts b/lib/util/strings.ts\n--- a/lib/util/strings.ts\n+++ b/lib/util/strings.ts\n@@ -100,2 +100,2 @@\n-old\n+new\n ctx\n',
  );

  it('asks for a line per finding, with the numbered diff, what was left out, the focus and the repository\'s instructions', () => {
    const { text, leftOut } = numberedDiff(files, 10_000);
    const [system, user] = reviewPrompt({ diff: text, leftOut: [...leftOut, 'big.ts'], focus: ' error handling ', instructions: 'Use tabs (mg-rule).' });
    assert.equal(system!.role, 'system');
    assert.match(String(system!.content), /path\/to\/file\.ext:LINE: SEVERITY: /);
    assert.match(String(system!.content), /mg-rule/);
    assert.match(String(user!.content), /   11 \+ added one/);
    assert.match(String(user!.content), /not shown .*: big\.ts/);
    assert.match(String(user!.content), /Look in particular at: error handling\n/);
  });

  it('reads findings in the forms models write them, placed on the lines shown', () => {
    const answer = [
      '<think>the loop is off by one</think>',
      'src/app.ts:11: error: `added one` dereferences a null result; check it first.',
      '- **lib/util/strings.ts:100**: warning: new() is never awaited',
      '`src/app.ts`:L12: Info - a name that says more would help',
      '1. app.ts:13-14: suggestion: split this',
      'src/app.ts:35: warning: eight lines off the hunk is not near enough... twenty-two is',
      'other.ts:5: error: a file that was not shown',
      'Some closing words that are no finding.',
    ].join('\n');
    const found = parseFindings(answer, files);
    assert.deepEqual(found.map((f) => [f.severity, f.at && `${f.at.path}:${f.at.line}`, f.said]), [
      ['error', 'src/app.ts:11', 'src/app.ts:11'],
      ['warning', 'lib/util/strings.ts:100', 'lib/util/strings.ts:100'],
      ['info', 'src/app.ts:12', 'src/app.ts:12'],
      ['info', 'src/app.ts:13', 'app.ts:13'],
      ['warning', null, 'src/app.ts:35'],
      ['error', null, 'other.ts:5'],
    ]);
    assert.equal(found[0]!.message, '`added one` dereferences a null result; check it first.');
  });

  it('reads the other ways models mark the place and the severity', () => {
    const answer = [
      '**src/app.ts:11** — error: an em dash after the place',
      'src/app.ts:12: [warning] a bracketed severity',
      '`src/app.ts` (line 13): info - the line in words',
      'src/app.ts:line 12: Note: "line" after the colon',
      'src/app.ts:12: error handling is missing here (a sentence, not a severity)',
    ].join('\n');
    assert.deepEqual(parseFindings(answer, files).map((f) => [f.severity, f.at && f.at.line, f.message]), [
      ['error', 11, 'an em dash after the place'],
      ['warning', 12, 'a bracketed severity'],
      ['info', 13, 'the line in words'],
      ['info', 12, '"line" after the colon'],
    ]);
  });

  it('reads a streamed answer: each finding once its line is complete, reasoning left out, the last line at the end', () => {
    const reader = new FindingsReader(files);
    assert.deepEqual(reader.push('<think>src/app.ts:11: error: not a finding, only reasoning\n'), []);
    assert.deepEqual(reader.push('</think>src/app.ts:11: err'), []);
    assert.deepEqual(reader.push('or: first\nsrc/app.ts:12: warn').map((f) => f.message), ['first']);
    assert.deepEqual(reader.push('ing: second, cut mid-line'), []);
    assert.deepEqual(reader.finish().map((f) => [f.severity, f.message]), [['warning', 'second, cut mid-line']]);
  });

  it('moves a finding a few lines off its hunk onto the hunk\'s nearest line', () => {
    const [finding] = parseFindings('src/app.ts:17: warning: just past the end', files);
    assert.deepEqual(finding!.at, { path: 'src/app.ts', line: 13 });
  });

  it(`reads "${NO_FINDINGS}" (in any case, fenced or not) as none`, () => {
    for (const answer of [NO_FINDINGS, 'no findings.', '```\nNO FINDINGS\n```', '**No findings**', '']) assert.deepEqual(parseFindings(answer, files), [], answer);
  });
});

describe('review: findings follow the edits made since', () => {
  it('stay above an edit, move with the lines below it, and go when their line is edited', () => {
    const insertTwoAtTop = { startLine: 0, endLine: 0, newLineBreaks: 2 };
    assert.equal(lineAfterEdit(3, insertTwoAtTop), 5);
    assert.equal(lineAfterEdit(0, insertTwoAtTop), null, 'typing on the finding\'s own line');
    const joinLines4To6 = { startLine: 4, endLine: 6, newLineBreaks: 0 };
    assert.equal(lineAfterEdit(3, joinLines4To6), 3);
    assert.equal(lineAfterEdit(5, joinLines4To6), null);
    assert.equal(lineAfterEdit(10, joinLines4To6), 8);
  });
});

describe('review: the diff\'s budget follows the model\'s context', () => {
  it('is the cap for a model of unknown or large context, less for a small one, never under 2,000 characters', () => {
    assert.equal(budgetChars(undefined, 48_000), 48_000);
    assert.equal(budgetChars(200_000, 48_000), 48_000);
    assert.equal(budgetChars(8_192 - 2_048, 48_000), (6_144 - 1_500) * 3);
    assert.equal(budgetChars(1_875, 48_000), 2_000);
  });
});

describe('review: what @gateway /review is asked', () => {
  it('reads "since BRANCH" or "against BRANCH" first, then what to look at', () => {
    assert.deepEqual(parseReviewAsk('since main: error handling'), { since: 'main', focus: 'error handling' });
    assert.deepEqual(parseReviewAsk('Against origin/release-1.2 security'), { since: 'origin/release-1.2', focus: 'security' });
    assert.deepEqual(parseReviewAsk('since main'), { since: 'main', focus: '' });
    assert.deepEqual(parseReviewAsk(' error handling since the last release '), { focus: 'error handling since the last release' });
    assert.deepEqual(parseReviewAsk('since -x'), { focus: 'since -x' }, 'never an option for git');
  });
});

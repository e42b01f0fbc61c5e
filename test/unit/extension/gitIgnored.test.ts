// The codebase index leaves out what git ignores. The matcher is checked against git itself: the same
// .gitignore files and paths in a real repository, and `git check-ignore` says which are ignored.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gitIgnoreMatcher, type IgnoreFile } from '../../../src/extension/codebase/gitIgnored.ts';

/** .git/info/exclude: the root's patterns, below its .gitignore's (which can take one back). */
const EXCLUDE = 'local-notes/\nscratch.ts\n*.bak\n';
const IGNORE_FILES: IgnoreFile[] = [
  // Folders, globs, anchored paths, a negation, a comment and a blank line.
  { dir: '', text: '# build output\nbuild/\n*.log\n!important.log\n\n/docs/api\ngen/\nsrc/*.tmp\nsecret*\n!secret.md\n!keep.bak\n' },
  // A deeper file decides first: it takes back what the root ignores, and adds its own rules, relative to it.
  { dir: 'src', text: '!*.log\nkeep/*.txt\n!keep/b.txt\n' },
  // Nothing under an ignored folder can be taken back in, even by a file inside it.
  { dir: 'build', text: '!*.ts\n' },
  { dir: 'packages/web', text: '/public/generated\n*.snap\n' },
];
const PATHS = [
  'build/x/a.ts', 'build/b.ts', 'src/gen/g.ts', 'src/keep/a.txt', 'src/keep/b.txt', 'src/a.log', 'logs/x.log', 'important.log',
  'docs/api/i.ts', 'docs/readme.md', 'api/docs/api/ok.ts', 'src/x.tmp', 'src/nested/x.tmp', 'src/deep.ts', 'secret.txt', 'secret.md',
  'src/secretive.ts', 'Build/c.ts', 'packages/web/public/generated/a.js', 'packages/web/public/index.html',
  'packages/web/src/a.test.ts.snap', 'packages/api/public/generated/b.js', 'README.md',
  'local-notes/todo.md', 'src/scratch.ts', 'old.bak', 'keep.bak',
];

describe('codebase: what git ignores', () => {
  let repo: string;

  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'mg-gitignore-'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(join(repo, '.git/info/exclude'), EXCLUDE);
    for (const file of IGNORE_FILES) {
      mkdirSync(join(repo, file.dir), { recursive: true });
      writeFileSync(join(repo, file.dir, '.gitignore'), file.text);
    }
    for (const path of PATHS) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), 'x\n');
    }
  });

  after(() => rmSync(repo, { recursive: true, force: true }));

  it('ignores exactly the paths git ignores, across nested .gitignore files', () => {
    const byGit = (() => {
      try {
        return execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: repo, input: PATHS.join('\n'), encoding: 'utf8' });
      } catch (error) {
        // Status 1: none ignored.
        if ((error as { status?: number }).status === 1) return '';
        throw error;
      }
    })().split('\n').filter(Boolean).sort();
    const ignored = gitIgnoreMatcher([{ dir: '', text: EXCLUDE }, ...IGNORE_FILES], false);
    assert.deepEqual(PATHS.filter(ignored).sort(), byGit);
    // The cases the list was written for, so the comparison cannot pass on two empty lists.
    assert.ok(byGit.includes('build/b.ts') && byGit.includes('src/keep/a.txt') && byGit.includes('packages/web/public/generated/a.js'));
    assert.ok(!byGit.includes('src/a.log') && !byGit.includes('src/keep/b.txt') && !byGit.includes('api/docs/api/ok.ts'));
    assert.ok(byGit.includes('local-notes/todo.md') && byGit.includes('src/scratch.ts') && byGit.includes('old.bak') && !byGit.includes('keep.bak'), 'the exclude file counts, below .gitignore');
  });

  it('matches case-insensitively only where the file system does', () => {
    assert.equal(gitIgnoreMatcher(IGNORE_FILES, false)('Build/c.ts'), false);
    assert.equal(gitIgnoreMatcher(IGNORE_FILES, true)('Build/c.ts'), true);
  });

  it('ignores nothing without a .gitignore', () => {
    assert.equal(gitIgnoreMatcher([], false)('build/a.ts'), false);
  });
});

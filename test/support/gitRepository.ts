// A Git repository in a temp folder with one commit, for the tests of the commit message: `git` runs in it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRepository {
  readonly dir: string;
  git(...args: string[]): string;
  /** Writes a file of the repository (a path relative to it). */
  write(path: string, content: string): void;
}

export function repositoryWithCommit(prefix: string, file: { path: string; content: string }, subject: string): TestRepository {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  const write = (path: string, content: string): void => writeFileSync(join(dir, path), content);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'tests@example.com');
  git('config', 'user.name', 'Tests');
  write(file.path, file.content);
  git('add', '.');
  git('commit', '-q', '-m', subject);
  return { dir, git, write };
}

/** Writes `files` (path: content) and commits them as `subject` on the current branch. */
export function commitFiles(repo: TestRepository, files: Readonly<Record<string, string>>, subject: string): void {
  for (const [path, content] of Object.entries(files)) repo.write(path, content);
  repo.git('add', '--', ...Object.keys(files));
  repo.git('commit', '-q', '-m', subject);
}

/**
 * A repository's changes as one diff: the uncommitted ones against HEAD (staged and not: what the next commit would
 * hold if everything were added), or, since a branch, everything the current branch changed since it left that
 * branch (its commits and the uncommitted changes, against their merge base), what a pull request would show. Files
 * git does not track yet are shown as new files. Asked of git itself: the Git extension's API has no diff of the
 * whole tree against a commit, and its view lags commands run in a terminal. Also what a branch committed since
 * another, for its pull request's description.
 */
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { newFileDiff } from './numberedDiff.ts';

/** Untracked files past these are named by git's status but not read: a review is about code someone wrote. */
const UNTRACKED_FILES_READ = 50;
const UNTRACKED_FILE_BYTES = 100 * 1024;

function git(gitPath: string, cwd: string, args: readonly string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(gitPath, args, { cwd, signal, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (error, stdout, stderr) => {
      if (error) reject(new Error(stderr.trim() || error.message));
      else resolve(stdout);
    });
    child.stdin?.end(); // nothing to read: `--stdin` reads an empty object
  });
}

/**
 * What the changes are counted from: the merge base of HEAD and `since`; else HEAD, or, in a repository without
 * commits yet, the empty tree (of the repository's own hash).
 */
async function base(gitPath: string, root: string, signal: AbortSignal, since: string | undefined): Promise<string> {
  if (since !== undefined) {
    if (since.startsWith('-')) throw new Error(`"${since}" is not a branch`);
    return (await git(gitPath, root, ['merge-base', 'HEAD', since], signal)).trim();
  }
  try {
    await git(gitPath, root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], signal);
    return 'HEAD';
  } catch (error) {
    if (signal.aborted) throw error;
    return (await git(gitPath, root, ['hash-object', '-t', 'tree', '--stdin'], signal)).trim();
  }
}

/**
 * The changes since `since` (a branch or any commit), or the uncommitted ones when it is undefined. The prefixes are
 * a/ and b/ whatever the user's diff.noprefix or diff.mnemonicPrefix say: the paths are read from them.
 */
export async function changesDiff(gitPath: string, root: string, signal: AbortSignal, since?: string): Promise<string> {
  const against = await base(gitPath, root, signal, since);
  const tracked = await git(gitPath, root, ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--find-renames', '--src-prefix=a/', '--dst-prefix=b/', against, '--'], signal);
  const untracked = (await git(gitPath, root, ['ls-files', '--others', '--exclude-standard', '-z'], signal)).split('\0').filter(Boolean);
  const added: string[] = [];
  for (const path of untracked.slice(0, UNTRACKED_FILES_READ)) {
    const text = await readText(join(root, path));
    if (text !== null) added.push(newFileDiff(path, text));
  }
  return tracked + added.join('');
}

/** A small text file's content; null for a large or binary one, or one that cannot be read. */
async function readText(file: string): Promise<string | null> {
  try {
    if ((await stat(file)).size > UNTRACKED_FILE_BYTES) return null;
    const bytes = await readFile(file);
    return bytes.includes(0) ? null : bytes.toString('utf8');
  } catch {
    return null;
  }
}

/** The repository's branches, local first, then remote ones (`origin/main`), as git names them. */
export async function branchNames(gitPath: string, root: string, signal: AbortSignal): Promise<string[]> {
  const listed = await git(gitPath, root, ['for-each-ref', '--format=%(refname:short)', 'refs/heads', 'refs/remotes'], signal);
  return listed.split('\n').map((name) => name.trim()).filter((name) => name !== '' && !name.endsWith('/HEAD'));
}

/**
 * What the current branch committed since it left `since` (as its pull request would show: commits only, against their
 * merge base): its name, its commits' subjects oldest first, their diff. Null when it has no commit of its own.
 */
export async function committedSince(gitPath: string, root: string, signal: AbortSignal, since: string): Promise<{ branch: string; subjects: string[]; diff: string } | null> {
  const from = await base(gitPath, root, signal, since);
  const subjects = (await git(gitPath, root, ['log', '--reverse', '--no-merges', '--format=%s', `${from}..HEAD`, '--'], signal)).split('\n').filter((s) => s.trim() !== '');
  if (subjects.length === 0) return null;
  const branch = (await git(gitPath, root, ['rev-parse', '--abbrev-ref', 'HEAD'], signal)).trim();
  const diff = await git(gitPath, root, ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--find-renames', '--src-prefix=a/', '--dst-prefix=b/', from, 'HEAD', '--'], signal);
  return { branch, subjects, diff };
}

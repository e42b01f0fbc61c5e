/**
 * Git's ignore rules for the codebase index: what a repository's .gitignore files leave out (generated code,
 * data, local builds) is not code anyone asks about, and embedding it costs the user money. The rules are
 * matched by the `ignore` library (git's own syntax, negations included); this file adds what git does across
 * several .gitignore files: each one's patterns are relative to its folder, a deeper file decides before the
 * ones above it, and nothing under an ignored folder can be taken back in.
 */
import ignore, { type Ignore } from 'ignore';

export interface IgnoreFile {
  /** The folder the file is in, relative to the root, '/'-separated; '' for the root itself. */
  readonly dir: string;
  readonly text: string;
}

/** Whether a root-relative, '/'-separated path is ignored by `files`. `ignoreCase`: as git's core.ignorecase. */
export function gitIgnoreMatcher(files: readonly IgnoreFile[], ignoreCase: boolean): (path: string) => boolean {
  const rules = new Map<string, Ignore>();
  for (const file of files) rules.set(file.dir, ignore({ ignorecase: ignoreCase }).add(file.text));
  if (rules.size === 0) return () => false;
  return (path) => {
    const parts = path.split('/');
    // Each folder on the way down, then the file: the first one ignored ignores the path.
    for (let end = 1; end <= parts.length; end++) {
      const isFolder = end < parts.length;
      for (let at = end - 1; at >= 0; at--) {
        const own = rules.get(parts.slice(0, at).join('/'));
        if (!own) continue;
        const result = own.test(parts.slice(at, end).join('/') + (isFolder ? '/' : ''));
        if (result.ignored) return true;
        if (result.unignored) break;
      }
    }
    return false;
  };
}

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

/**
 * Whether a root-relative, '/'-separated path is ignored by `files`. `ignoreCase`: as git's core.ignorecase. Files of
 * one folder are read in the order given, a later one's patterns winning (the repository's .git/info/exclude goes
 * before the root's .gitignore, as git ranks them).
 */
export function gitIgnoreMatcher(files: readonly IgnoreFile[], ignoreCase: boolean): (path: string) => boolean {
  const rules = new Map<string, Ignore>();
  for (const file of files) {
    const own = rules.get(file.dir);
    if (own) own.add(file.text);
    else rules.set(file.dir, ignore({ ignorecase: ignoreCase }).add(file.text));
  }
  if (rules.size === 0) return () => false;

  /** Whether the rules of the folders above `path` ignore it, the deepest deciding first (its folders not considered). */
  const ruledOut = (path: string, isFolder: boolean): boolean => {
    const parts = path.split('/');
    for (let at = parts.length - 1; at >= 0; at--) {
      const own = rules.get(parts.slice(0, at).join('/'));
      if (!own) continue;
      const result = own.test(parts.slice(at).join('/') + (isFolder ? '/' : ''));
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  };
  // A workspace has far fewer folders than files: each folder is decided once.
  const folders = new Map<string, boolean>([['', false]]);
  const folderIgnored = (folder: string): boolean => {
    let ignored = folders.get(folder);
    if (ignored === undefined) {
      const cut = folder.lastIndexOf('/');
      ignored = folderIgnored(cut < 0 ? '' : folder.slice(0, cut)) || ruledOut(folder, true);
      folders.set(folder, ignored);
    }
    return ignored;
  };
  return (path) => {
    const cut = path.lastIndexOf('/');
    return folderIgnored(cut < 0 ? '' : path.slice(0, cut)) || ruledOut(path, false);
  };
}

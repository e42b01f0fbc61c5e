/**
 * Which files never send their text for inline completion: glob patterns matched against the file's path
 * (no vscode import, so the rules are unit-tested). The defaults cover the files where secrets live;
 * the user's `modelGateway.completions.exclude` adds to them and never replaces them.
 */

/** Always excluded: environment files, private keys and certificates, credential stores. */
export const DEFAULT_EXCLUDE: readonly string[] = [
  '**/.env',
  '**/.env.*',
  '**/*.env',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/id_rsa*',
  '**/id_dsa*',
  '**/id_ecdsa*',
  '**/id_ed25519*',
  '**/.npmrc',
  '**/.pypirc',
  '**/.netrc',
  '**/.git-credentials',
  '**/.aws/credentials',
  '**/.docker/config.json',
  '**/*secret*',
  '**/*credential*',
];

/**
 * A glob as a regular expression over a whole path with `/` separators: `**` any number of folders,
 * `*` and `?` within one segment, `{a,b}` alternatives, `[...]` classes. Case-insensitive, because
 * `.ENV` on a case-insensitive disk is the same file.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      inGroup++;
      out += '(?:';
    } else if (c === '}' && inGroup > 0) {
      inGroup--;
      out += ')';
    } else if (c === ',' && inGroup > 0) out += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        out += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 'i');
}

/** A path in the form the patterns are written for: `/` separators (Windows paths too). */
function normalPath(path: string): string {
  return path.replace(/\\/g, '/');
}

/**
 * Whether `path` (absolute, or relative to the workspace) matches one of the patterns. A pattern with no
 * `/` matches a file name in any folder, as `.gitignore` does; anything else matches the whole path or
 * any tail of it after a `/`, so `secrets/**` works relative to any folder.
 */
export function matchesAny(path: string, patterns: readonly string[]): boolean {
  const p = normalPath(path);
  const name = p.slice(p.lastIndexOf('/') + 1);
  for (const pattern of patterns) {
    const glob = pattern.trim();
    if (glob === '') continue;
    const re = globToRegExp(glob.replace(/^\.\//, ''));
    if (!glob.includes('/')) {
      if (re.test(name)) return true;
      continue;
    }
    if (re.test(p)) return true;
    for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) if (re.test(p.slice(i + 1))) return true;
  }
  return false;
}

/** Whether a file must never be sent: the defaults or the user's patterns match it. */
export function isExcluded(path: string, userPatterns: readonly string[]): boolean {
  return matchesAny(path, DEFAULT_EXCLUDE) || matchesAny(path, userPatterns);
}

/**
 * The files the codebase index reads: the workspace's, without what no question is about (dependencies,
 * build output, lock files, media and archives) nor what the user excluded from the explorer or from search
 * or what the repository's .gitignore files leave out (as VS Code's search does, unless search.useIgnoreFiles
 * is off), and never the files where secrets live (.env, keys, credentials: the same list inline completion
 * never sends, with the user's modelGateway.completions.exclude).
 */
import * as vscode from 'vscode';
import { isExcluded } from '../completions/excludeGlobs.ts';
import { gitIgnoreMatcher } from './gitIgnored.ts';
import { MAX_FILES } from './limits.ts';

const SKIPPED_FOLDERS = ['node_modules', '.git', '.hg', '.svn', 'dist', 'out', 'build', 'coverage', '.next', '.nuxt', 'target', 'vendor', '__pycache__', '.venv', 'venv', '.cache', '.vscode-test'];
const SKIPPED_FILES = ['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'poetry.lock', 'composer.lock', 'Gemfile.lock', 'go.sum', '*.min.js', '*.min.css', '*.map', '*.lock'];
const BINARY_EXTENSIONS = 'png,jpg,jpeg,gif,webp,bmp,ico,icns,svgz,pdf,zip,gz,tgz,bz2,xz,7z,rar,jar,war,woff,woff2,ttf,otf,eot,exe,dll,so,dylib,a,o,obj,class,pyc,wasm,mp3,mp4,mov,avi,wav,ogg,webm,sqlite,db,bin,dat,pack,idx,vsix';
/** Files listed before .gitignore is applied: more than the index takes, since many of them can be ignored. */
const LISTED_AT_MOST = MAX_FILES * 10;
const IGNORE_FILES_AT_MOST = 1_000;

/** The settings' excluded globs (files.exclude, search.exclude): those set to true. */
function excludedBySettings(): string[] {
  const globs: string[] = [];
  for (const section of ['files.exclude', 'search.exclude']) {
    const value = vscode.workspace.getConfiguration().get<Record<string, unknown>>(section) ?? {};
    for (const [glob, on] of Object.entries(value)) if (on === true) globs.push(glob);
  }
  return globs;
}

export function excludeGlob(): string {
  const globs = [
    ...SKIPPED_FOLDERS.map((f) => `**/${f}/**`),
    ...SKIPPED_FILES.map((f) => `**/${f}`),
    ...BINARY_EXTENSIONS.split(',').map((ext) => `**/*.${ext}`),
    ...excludedBySettings(),
  ];
  // One brace group (findFiles takes a single exclude pattern), of globs without braces of their own: VS Code's
  // globs do not nest them. A settings glob that has some is left out rather than break the whole pattern.
  return `{${[...new Set(globs)].filter((g) => !/[{}]/.test(g)).join(',')}}`;
}

/** A workspace folder's relative path of `uri` ('/'-separated), with the folder's index; undefined outside every folder. */
function inFolder(uri: vscode.Uri): { folder: number; path: string } | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return undefined;
  return { folder: folder.index, path: uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1) };
}

/** Whether git would ignore a file, by the workspace folders' .gitignore files and .git/info/exclude (not the ones above them). */
async function gitIgnored(exclude: string, token?: vscode.CancellationToken): Promise<(uri: vscode.Uri) => boolean> {
  if (vscode.workspace.getConfiguration('search').get<boolean>('useIgnoreFiles') === false) return () => false;
  const found = await vscode.workspace.findFiles('**/.gitignore', exclude, IGNORE_FILES_AT_MOST, token);
  // The repository's own list of ignored files, kept out of its history: read before the root's .gitignore, which wins.
  const excludes = (vscode.workspace.workspaceFolders ?? []).map((folder) => vscode.Uri.joinPath(folder.uri, '.git/info/exclude'));
  const byFolder = new Map<number, Array<{ dir: string; text: string }>>();
  for (const uri of [...excludes, ...found]) {
    const where = inFolder(uri);
    if (!where) continue;
    // A missing or unreadable file (an exclude never written, a .gitignore deleted since it was listed) ignores nothing.
    const bytes = await vscode.workspace.fs.readFile(uri).then((b) => b, () => undefined);
    if (!bytes) continue;
    const files = byFolder.get(where.folder) ?? [];
    // .git/info/exclude's patterns are the root's, like its .gitignore's.
    const dir = where.path === '.git/info/exclude' ? '' : where.path.split('/').slice(0, -1).join('/');
    files.push({ dir, text: new TextDecoder().decode(bytes) });
    byFolder.set(where.folder, files);
  }
  // Git's core.ignorecase follows the file system: case-insensitive on macOS and Windows.
  const ignoreCase = process.platform !== 'linux';
  const matchers = new Map([...byFolder].map(([folder, files]) => [folder, gitIgnoreMatcher(files, ignoreCase)]));
  return (uri) => {
    const where = inFolder(uri);
    return where !== undefined && (matchers.get(where.folder)?.(where.path) ?? false);
  };
}

export interface WorkspaceFiles {
  /** At most MAX_FILES. */
  readonly uris: vscode.Uri[];
  /** The workspace has more files to index than these. */
  readonly capped: boolean;
}

/** The workspace's files to index; `neverSent`: the user's globs of files never sent. */
export async function workspaceFiles(neverSent: readonly string[], token?: vscode.CancellationToken): Promise<WorkspaceFiles> {
  const exclude = excludeGlob();
  const listed = await vscode.workspace.findFiles('**/*', exclude, LISTED_AT_MOST, token);
  const ignored = await gitIgnored(exclude, token);
  const kept = listed.filter((uri) => !isExcluded(uri.path, neverSent) && !ignored(uri));
  return { uris: kept.slice(0, MAX_FILES), capped: kept.length > MAX_FILES || listed.length === LISTED_AT_MOST };
}

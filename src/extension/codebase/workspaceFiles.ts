/**
 * The files the codebase index reads: the workspace's, without what no question is about (dependencies,
 * build output, lock files, media and archives) nor what the user excluded from the explorer or from search,
 * and never the files where secrets live (.env, keys, credentials: the same list inline completion never sends,
 * with the user's modelGateway.completions.exclude).
 */
import * as vscode from 'vscode';
import { isExcluded } from '../completions/excludeGlobs.ts';
import { MAX_FILES } from './limits.ts';

const SKIPPED_FOLDERS = ['node_modules', '.git', '.hg', '.svn', 'dist', 'out', 'build', 'coverage', '.next', '.nuxt', 'target', 'vendor', '__pycache__', '.venv', 'venv', '.cache', '.vscode-test'];
const SKIPPED_FILES = ['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'poetry.lock', 'composer.lock', 'Gemfile.lock', 'go.sum', '*.min.js', '*.min.css', '*.map', '*.lock'];
const BINARY_EXTENSIONS = 'png,jpg,jpeg,gif,webp,bmp,ico,icns,svgz,pdf,zip,gz,tgz,bz2,xz,7z,rar,jar,war,woff,woff2,ttf,otf,eot,exe,dll,so,dylib,a,o,obj,class,pyc,wasm,mp3,mp4,mov,avi,wav,ogg,webm,sqlite,db,bin,dat,pack,idx,vsix';

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

/** The workspace's files to index, at most MAX_FILES + 1 (one more says the cap was reached); `neverSent`: the user's globs. */
export async function workspaceFiles(neverSent: readonly string[], token?: vscode.CancellationToken): Promise<vscode.Uri[]> {
  const found = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_FILES + 1, token);
  return found.filter((uri) => !isExcluded(uri.path, neverSent));
}

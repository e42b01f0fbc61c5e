/**
 * Finds the repository's instruction files: AGENTS.md and .github/copilot-instructions.md at the root of each
 * workspace folder (or of the Git repository a commit is for), then every AGENTS.md between the root and the file at
 * hand (AGENTS.md's own rule: the nearest one is the most specific). Off with modelGateway.useInstructionFiles; a file the user never sends
 * (modelGateway.completions.exclude) is not read.
 */
import * as vscode from 'vscode';
import { isExcluded } from '../completions/excludeGlobs.ts';
import { instructionsText, type InstructionFile } from './instructionsText.ts';

const ROOT_FILES = ['AGENTS.md', '.github/copilot-instructions.md'];
const NESTED_FILE = 'AGENTS.md';
/** Larger files are not instructions (a generated dump): left out rather than read. */
const MAX_FILE_BYTES = 256 * 1024;

export interface FoundInstructions extends InstructionFile {
  readonly uri: vscode.Uri;
}

async function readIfPresent(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type !== vscode.FileType.File || stat.size > MAX_FILE_BYTES) return undefined;
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined; // not there
  }
}

/** The folders from just below `root` down to the one holding `file` (the nearest last). */
function foldersBetween(root: vscode.Uri, file: vscode.Uri): vscode.Uri[] {
  const rootPath = root.path.replace(/\/$/, '');
  const parts = file.path.slice(rootPath.length + 1).split('/').slice(0, -1);
  return parts.map((_, i) => root.with({ path: `${rootPath}/${parts.slice(0, i + 1).join('/')}` }));
}

function contains(root: vscode.Uri, file: vscode.Uri): boolean {
  return root.scheme === file.scheme && root.authority === file.authority && file.path.startsWith(`${root.path.replace(/\/$/, '')}/`);
}

/** Where to look: the roots (the workspace folders, or a repository's root), and the file the request is about. */
export interface InstructionsScope {
  readonly roots: readonly vscode.Uri[];
  readonly near?: vscode.Uri | undefined;
}

/** The instruction files that apply, general ones first. */
export async function findInstructionFiles(scope: InstructionsScope, neverSent: readonly string[]): Promise<FoundInstructions[]> {
  const candidates = scope.roots.flatMap((root) => ROOT_FILES.map((name) => vscode.Uri.joinPath(root, name)));
  const { near } = scope;
  const nearRoot = near ? scope.roots.find((root) => contains(root, near)) : undefined;
  if (near && nearRoot) candidates.push(...foldersBetween(nearRoot, near).map((dir) => vscode.Uri.joinPath(dir, NESTED_FILE)));
  const found: FoundInstructions[] = [];
  for (const uri of candidates) {
    if (isExcluded(uri.path, neverSent)) continue;
    const text = await readIfPresent(uri);
    if (text !== undefined) found.push({ uri, label: vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1), text });
  }
  return found;
}

export interface RepositoryInstructions {
  /** The system text ('' when none apply or the setting is off). */
  readonly text: string;
  /** The files it was made of, to show as references. */
  readonly files: readonly FoundInstructions[];
}

/** What goes with a request, by the user's settings. */
export async function repositoryInstructions(settings: { useInstructionFiles: boolean; completionsExclude: readonly string[] }, scope: InstructionsScope): Promise<RepositoryInstructions> {
  if (!settings.useInstructionFiles) return { text: '', files: [] };
  const files = await findInstructionFiles(scope, settings.completionsExclude);
  return { text: instructionsText(files), files };
}

/** The workspace's folders, and `near`: the scope of a request about the workspace's code. */
export function workspaceScope(near: vscode.Uri | undefined): InstructionsScope {
  return { roots: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri), near };
}

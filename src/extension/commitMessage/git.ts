/**
 * The part of VS Code's built-in Git extension API (extensions/git/src/api/git.d.ts, version 1) that the
 * commit message and the review need, and which repository a command means.
 */
import * as vscode from 'vscode';

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  /** What the Git extension has seen (refreshed on its own schedule; `diff` asks git itself). */
  readonly state: { readonly indexChanges: readonly unknown[]; readonly workingTreeChanges: readonly unknown[] };
  /** `git diff` of the working tree, or of the index with `cached`. */
  diff(cached?: boolean): Promise<string>;
  log(options?: { maxEntries?: number }): Promise<readonly { readonly message: string }[]>;
}

interface GitApi {
  /** The git executable the Git extension found (git.path), for what its API does not offer. */
  readonly git: { readonly path: string };
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The Git extension's API, or null when it is missing or turned off (`git.enabled: false`). */
export async function gitApi(): Promise<GitApi | null> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return null;
  const git = extension.isActive ? extension.exports : await extension.activate();
  return git.enabled ? git.getAPI(1) : null;
}

/**
 * The repository meant: the one whose Source Control title bar the command was run from (VS Code passes
 * that source control, with its rootUri), else the active editor's, else the only one; null when it
 * stays open which (the caller asks).
 */
export function repositoryFor(api: GitApi, arg: unknown): GitRepository | null {
  const rootUri = (arg as { rootUri?: unknown } | undefined)?.rootUri;
  if (rootUri instanceof vscode.Uri) {
    const fromTitle = api.getRepository(rootUri);
    if (fromTitle) return fromTitle;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const fromEditor = active ? api.getRepository(active) : null;
  if (fromEditor) return fromEditor;
  return api.repositories.length === 1 ? api.repositories[0]! : null;
}

/** The first line of each of the latest commits' messages (an empty list for a repository without commits). */
export async function recentSubjects(repository: GitRepository, count = 10): Promise<string[]> {
  try {
    return (await repository.log({ maxEntries: count })).map((c) => c.message.split('\n', 1)[0]!.trim());
  } catch {
    return [];
  }
}

/**
 * The repository a command is for (see repositoryFor), else the user's pick among those open (titled `question`);
 * null, with a word to the user, when there is none or no pick.
 */
export async function chooseRepository(arg: unknown, question: string): Promise<GitRepository | null> {
  const t = vscode.l10n.t;
  const api = await gitApi();
  if (!api) {
    void vscode.window.showWarningMessage(t('This needs VS Code\'s Git extension, which is missing or turned off (git.enabled).'));
    return null;
  }
  const meant = repositoryFor(api, arg);
  if (meant) return meant;
  if (api.repositories.length === 0) {
    void vscode.window.showInformationMessage(t('No Git repository is open.'));
    return null;
  }
  const picked = await vscode.window.showQuickPick(
    api.repositories.map((repository) => ({ label: vscode.workspace.asRelativePath(repository.rootUri, true) || repository.rootUri.fsPath, repository })),
    { title: question },
  );
  return picked?.repository ?? null;
}

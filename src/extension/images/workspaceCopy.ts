/** A kept image copied into the workspace, never over a file: `name`, else `name-2`, `name-3`… */
import * as vscode from 'vscode';

/** `folder/name`, or `name-2`, `name-3`… when taken. */
export async function freeUri(folder: vscode.Uri, name: string): Promise<vscode.Uri> {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = vscode.Uri.joinPath(folder, n === 1 ? name : `${stem}-${n}${extension}`);
    const exists = await vscode.workspace.fs.stat(candidate).then(() => true, () => false);
    if (!exists) return candidate;
  }
}

/** Copies `source` to a free name in `folder` (made when missing); the file written. */
export async function copyInto(source: vscode.Uri, folder: vscode.Uri, name: string): Promise<vscode.Uri> {
  await vscode.workspace.fs.createDirectory(folder);
  const target = await freeUri(folder, name);
  await vscode.workspace.fs.copy(source, target);
  return target;
}

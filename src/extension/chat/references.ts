/**
 * The text of what the user attached to a @gateway prompt (#file, a selection, a
 * string variable), when it is cheap to get: strings as they are, files and
 * ranges read through VS Code, each capped, images and the rest left out.
 */
import * as vscode from 'vscode';
import type { Reference } from './history.ts';

const MAX_CHARS_EACH = 50_000;
const MAX_CHARS_TOTAL = 150_000;

function cap(text: string): string {
  return text.length > MAX_CHARS_EACH ? `${text.slice(0, MAX_CHARS_EACH)}\n… (truncated)` : text;
}

async function textOf(value: unknown): Promise<{ label: string; text: string } | undefined> {
  if (typeof value === 'string') return { label: '', text: value };
  if (value instanceof vscode.Uri) {
    const stat = await vscode.workspace.fs.stat(value);
    if (stat.type & vscode.FileType.Directory || stat.size > 4 * MAX_CHARS_EACH) return undefined;
    const document = await vscode.workspace.openTextDocument(value);
    return { label: vscode.workspace.asRelativePath(value), text: document.getText() };
  }
  if (value instanceof vscode.Location) {
    const document = await vscode.workspace.openTextDocument(value.uri);
    const range = value.range;
    return { label: `${vscode.workspace.asRelativePath(value.uri)}:${range.start.line + 1}-${range.end.line + 1}`, text: document.getText(range) };
  }
  return undefined;
}

export async function referenceTexts(references: readonly vscode.ChatPromptReference[], log: vscode.LogOutputChannel): Promise<Reference[]> {
  const out: Reference[] = [];
  let total = 0;
  // VS Code lists references last-in-prompt first; send them in prompt order.
  for (const reference of [...references].reverse()) {
    if (total >= MAX_CHARS_TOTAL) break;
    try {
      const found = await textOf(reference.value);
      if (!found) continue;
      const text = cap(found.text);
      total += text.length;
      out.push({ label: found.label || reference.modelDescription || reference.id, text });
    } catch (error) {
      log.debug(`@gateway: reference ${reference.id} skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return out;
}

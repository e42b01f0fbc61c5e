/**
 * @gateway /codebase: the index brought up to date (changed files only), the question embedded, the nearest
 * code read from the workspace and attached to the question as excerpts, each shown as a reference in the
 * answer. What cannot be done (no folder, no embedding model, no question) is a view with its fix.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import type { Reference } from '../chat/history.ts';
import type { ChatView } from '../chat/views.ts';
import { excerptsOf } from './excerpts.ts';
import { indexLine } from './indexLine.ts';

/** Chunks asked of the index: more than the excerpts sent, since neighbours of one file are joined. */
const SEARCHED_CHUNKS = 24;
/** Progress lines while indexing: one per this many files. */
const PROGRESS_EVERY_FILES = 25;

export const CODEBASE_SYSTEM =
  "The user asks about the code of their workspace. Excerpts found by searching it are attached after the question, each headed by its path and lines. Answer from them, naming files as path:line. When they do not hold the answer, say so and say what to look for.";

export type CodebaseLookup = { readonly kind: 'found'; readonly references: Reference[]; readonly note: string | null } | { readonly kind: 'view'; readonly view: ChatView };

export async function lookUpCodebase(services: ExtensionServices, question: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, signal: AbortSignal): Promise<CodebaseLookup> {
  const { t, codebase } = services;
  if (!codebase) return { kind: 'view', view: { markdown: t('Open a folder to ask about its code: /codebase searches the files of the workspace.'), buttons: [] } };
  if (question.trim() === '') return { kind: 'view', view: { markdown: t('Ask a question after /codebase, for example: /codebase where are requests retried?'), buttons: [] } };
  const model = services.settings.current.embeddingModel;
  if (model === '') {
    return {
      kind: 'view',
      view: { markdown: t('/codebase needs an embedding model to index this workspace with. Pick one of the gateway\'s embedding models.'), buttons: [{ title: t('Pick Embedding Model'), command: COMMANDS.pickEmbeddingModel }] },
    };
  }
  const client = await services.connection.require();
  stream.progress(t('Looking for changed files…'));
  const report = await codebase.refresh(client, model, (done, total) => {
    if (total > 0 && (done === 0 || done % PROGRESS_EVERY_FILES === 0)) stream.progress(t('Indexing {0} of {1} changed files with {2}…', done, total, model));
  }, token);
  stream.progress(t('Searching the code…'));
  const excerpts = excerptsOf(await codebase.search(client, question, SEARCHED_CHUNKS, signal));
  const references: Reference[] = [];
  for (const excerpt of excerpts) {
    const uri = vscode.Uri.parse(excerpt.file);
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      const end = Math.min(excerpt.end, document.lineCount - 1);
      if (excerpt.start > end) continue;
      const range = new vscode.Range(excerpt.start, 0, end, document.lineAt(end).text.length);
      references.push({ label: `${vscode.workspace.asRelativePath(uri)}:${excerpt.start + 1}-${end + 1}`, text: document.getText(range) });
      stream.reference(new vscode.Location(uri, range));
    } catch (error) {
      services.log.debug(`/codebase: ${excerpt.file} not read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const notes = [indexLine(report, model, t), references.length === 0 ? t('No code of this workspace was found to send with the question.') : null].filter((n) => n !== null);
  return { kind: 'found', references, note: notes.length > 0 ? notes.join(' ') : null };
}

/**
 * @gateway /codebase: the workspace's code searched for the question (codebaseSearch.ts), the excerpts attached to
 * it and shown as references in the answer. What cannot be done (no folder, no embedding model, no question) is a
 * view with its fix.
 */
import type * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import type { Reference } from '../chat/history.ts';
import type { ChatView } from '../chat/views.ts';
import { searchCodebase } from './codebaseSearch.ts';
import { indexLine } from './indexLine.ts';

/** Progress lines while indexing: one per this many files. */
const PROGRESS_EVERY_FILES = 25;

export const CODEBASE_SYSTEM =
  "The user asks about the code of their workspace. Excerpts found by searching it are attached after the question, each headed by its path and lines. Answer from them, naming files as path:line. When they do not hold the answer, say so and say what to look for.";

export type CodebaseLookup = { readonly kind: 'found'; readonly references: Reference[]; readonly note: string | null } | { readonly kind: 'view'; readonly view: ChatView };

export async function lookUpCodebase(services: ExtensionServices, question: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, signal: AbortSignal): Promise<CodebaseLookup> {
  const { t } = services;
  if (question.trim() === '') return { kind: 'view', view: { markdown: t('Ask a question after /codebase, for example: /codebase where are requests retried?'), buttons: [] } };
  stream.progress(t('Looking for changed files…'));
  const model = services.settings.current.embeddingModel;
  const found = await searchCodebase(services, question, {
    token,
    signal,
    progress: (done, total) => {
      if (total > 0 && (done === 0 || done % PROGRESS_EVERY_FILES === 0)) stream.progress(t('Indexing {0} of {1} changed files with {2}…', done, total, model));
      if (done === total) stream.progress(t('Searching the code…'));
    },
  });
  if (found.kind === 'refused') {
    if (found.why === 'no_folder') return { kind: 'view', view: { markdown: t('Open a folder to ask about its code: /codebase searches the files of the workspace.'), buttons: [] } };
    return {
      kind: 'view',
      view: { markdown: t('/codebase needs an embedding model to index this workspace with. Pick one of the gateway\'s embedding models.'), buttons: [{ title: t('Pick Embedding Model'), command: COMMANDS.pickEmbeddingModel }] },
    };
  }
  for (const excerpt of found.excerpts) stream.reference(excerpt.location);
  const notes = [indexLine(found.report, found.model, t), found.excerpts.length === 0 ? t('No code of this workspace was found to send with the question.') : null].filter((n) => n !== null);
  return { kind: 'found', references: found.excerpts.map(({ label, text }) => ({ label, text })), note: notes.length > 0 ? notes.join(' ') : null };
}

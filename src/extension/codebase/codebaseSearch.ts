/**
 * A search of the workspace's code, as both /codebase and the language-model tool run it: the index brought up to
 * date (changed files only) with the configured embedding model, the question embedded, the nearest code read from
 * the workspace (its current text, open editors' unsaved changes included) as excerpts with their locations.
 */
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services.ts';
import type { RefreshProgress, RefreshReport } from './codebaseIndex.ts';
import { excerptsOf, MAX_EXCERPTS } from './excerpts.ts';

/** Chunks asked of the index: more than the excerpts sent, since neighbours of one file are joined. */
const SEARCHED_CHUNKS_PER_EXCERPT = 4;

export interface FoundExcerpt {
  readonly location: vscode.Location;
  /** `path:first-last` (1-based lines). */
  readonly label: string;
  readonly text: string;
}

/** Why a search cannot run, in the user's words. */
export type SearchRefusal = 'no_folder' | 'no_embedding_model';

export type CodebaseSearch = { readonly kind: 'found'; readonly excerpts: FoundExcerpt[]; readonly report: RefreshReport; readonly model: string } | { readonly kind: 'refused'; readonly why: SearchRefusal };

export async function searchCodebase(
  services: ExtensionServices,
  question: string,
  options: { readonly token: vscode.CancellationToken; readonly signal: AbortSignal; readonly progress?: RefreshProgress; readonly maxExcerpts?: number },
): Promise<CodebaseSearch> {
  const { codebase } = services;
  if (!codebase) return { kind: 'refused', why: 'no_folder' };
  const model = services.settings.current.embeddingModel;
  if (model === '') return { kind: 'refused', why: 'no_embedding_model' };
  const client = await services.connection.require();
  const report = await codebase.refresh(client, model, options.progress ?? (() => undefined), options.token);
  const max = options.maxExcerpts ?? MAX_EXCERPTS;
  const hits = await codebase.search(client, question, max * SEARCHED_CHUNKS_PER_EXCERPT, options.signal);
  const excerpts: FoundExcerpt[] = [];
  for (const excerpt of excerptsOf(hits, max)) {
    const uri = vscode.Uri.parse(excerpt.file);
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      const end = Math.min(excerpt.end, document.lineCount - 1);
      if (excerpt.start > end) continue;
      const range = new vscode.Range(excerpt.start, 0, end, document.lineAt(end).text.length);
      excerpts.push({ location: new vscode.Location(uri, range), label: `${vscode.workspace.asRelativePath(uri)}:${excerpt.start + 1}-${end + 1}`, text: document.getText(range) });
    } catch (error) {
      services.log.debug(`Codebase search: ${excerpt.file} not read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { kind: 'found', excerpts, report, model };
}

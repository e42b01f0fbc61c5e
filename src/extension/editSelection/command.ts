/**
 * "Edit Selection with Instructions…" (the editor's context menu, and bindable to a key): the selection, or the
 * cursor's line when nothing is selected, is rewritten by the configured chat model as the instruction says.
 * The change is one edit (one Undo), refused when the file changed while the model wrote, and its
 * notification offers to undo it. An `{ instruction }` argument skips the input box (keybindings, the quick fix),
 * and `{ uri, range }` names what to edit (quickFix.ts).
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { chatModelOrPick } from '../commands/chatModelOrPick.ts';
import { givenOrAsked } from '../commands/givenOrAsked.ts';
import { signalFromToken } from '../chat/abort.ts';
import { CONTEXT_LINES, editPrompt, MAX_SELECTION_CHARS } from './prompt.ts';
import { repositoryInstructions, workspaceScope } from '../instructions/instructionFiles.ts';
import { replacementFrom } from './answer.ts';
import { usageLine } from '../chat/usageLine.ts';

/** What a caller may say: the instruction (no question asked), and the document and range (else the active editor's selection). */
export interface EditArguments {
  readonly instruction?: unknown;
  readonly uri?: unknown;
  readonly range?: unknown;
}

export function registerEditSelectionCommand(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const history: string[] = [];
  context.subscriptions.push(vscode.commands.registerCommand(COMMANDS.editSelection, (arg?: EditArguments) => editSelection(services, history, arg ?? {})));
}

/** The document and range meant: the ones given, else the active editor's. */
function targetOf(arg: EditArguments): { document: vscode.TextDocument; range: vscode.Range } | null {
  if (arg.uri instanceof vscode.Uri && arg.range instanceof vscode.Range) {
    const uri = arg.uri.toString();
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    return document ? { document, range: arg.range } : null;
  }
  const editor = vscode.window.activeTextEditor;
  return editor ? { document: editor.document, range: rangeToEdit(editor) } : null;
}

/** The range edited: the selection, or the whole line of the cursor (its line break included) when nothing is selected. */
function rangeToEdit(editor: vscode.TextEditor): vscode.Range {
  const { selection, document } = editor;
  if (!selection.isEmpty) return new vscode.Range(selection.start, selection.end);
  const line = document.lineAt(selection.active.line);
  return line.lineNumber + 1 < document.lineCount ? new vscode.Range(line.range.start, new vscode.Position(line.lineNumber + 1, 0)) : line.range;
}

export async function editSelection(services: ExtensionServices, history: string[], arg: EditArguments): Promise<void> {
  const t = vscode.l10n.t;
  const target = targetOf(arg);
  if (!target) {
    void vscode.window.showInformationMessage(t('Open a file and select the code to edit.'));
    return;
  }
  if (target.document.getText(target.range).length > MAX_SELECTION_CHARS) {
    void vscode.window.showWarningMessage(t('The selection is too large to edit in one request: select at most {0} characters.', MAX_SELECTION_CHARS.toLocaleString('en-US')));
    return;
  }
  const model = await chatModelOrPick(services, t('Pick the gateway model that edits code first.'));
  if (model === null) return;
  const instruction = await givenOrAsked(arg.instruction, history, {
    title: t('Edit with {0}', model),
    prompt: t('What should change in the selected code?'),
    example: t('for example: handle the error case, add types, make it a loop'),
  });
  if (instruction === undefined) return;

  const { document, range } = target;
  const selected = document.getText(range);
  const before = document.getText(new vscode.Range(new vscode.Position(Math.max(0, range.start.line - CONTEXT_LINES), 0), range.start));
  const after = document.getText(new vscode.Range(range.end, document.lineAt(Math.min(document.lineCount - 1, range.end.line + CONTEXT_LINES)).range.end));
  // The version of the text read above: a change from here on (while the instructions are read, while the model
  // writes) leaves the file alone.
  const version = document.version;
  const { text: instructions, files } = await repositoryInstructions(services.settings.current, workspaceScope(document.uri));
  if (files.length > 0) services.log.info(`Edit Selection: with the instructions of ${files.map((f) => f.label).join(', ')}.`);
  const messages = editPrompt({ instruction, languageId: document.languageId, path: vscode.workspace.asRelativePath(document.uri), before, selected, after, instructions });

  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Editing with {0}…', model), cancellable: true }, async (_progress, token) => {
    const abort = signalFromToken(token);
    try {
      const client = await services.connection.require();
      const answer = await client.chat({ model, messages }, { signal: abort.signal });
      const replacement = replacementFrom(answer.choices[0]?.message.content ?? '', selected);
      if (replacement === '') {
        void vscode.window.showWarningMessage(t('{0} returned no code; nothing was changed.', model));
        return;
      }
      if (document.version !== version) {
        void vscode.window.showWarningMessage(t('The file changed while {0} was writing; the edit was not applied.', model));
        return;
      }
      await applyWithUndo(document, range, selected, replacement, answer.usage ? `${model}, ${usageLine(answer.usage, t)}` : model);
    } catch (error) {
      if (!token.isCancellationRequested) await showErrorWithFixes(services, error, t('Edit'));
    } finally {
      abort.dispose();
      services.connection.balanceMayHaveChanged();
    }
  });
}

/** One edit; its notification (not waited for: the progress ends with the edit) offers to undo it. */
async function applyWithUndo(document: vscode.TextDocument, range: vscode.Range, original: string, replacement: string, by: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, range, replacement);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The edit could not be applied to {0}.', vscode.workspace.asRelativePath(document.uri)));
    return;
  }
  const end = document.positionAt(document.offsetAt(range.start) + replacement.length);
  void offerUndo(document, new vscode.Range(range.start, end), original, by);
}

/** Undo puts the original back while nothing else has changed the file since the edit. */
/** `by`: the model, and what the answer cost where the gateway says ("echo, 120 + 8 tokens · $0.000128"). */
async function offerUndo(document: vscode.TextDocument, edited: vscode.Range, original: string, by: string): Promise<void> {
  const t = vscode.l10n.t;
  const version = document.version;
  const undo = t('Undo');
  if ((await vscode.window.showInformationMessage(t('Edited with {0}.', by), undo)) !== undo) return;
  if (document.version !== version) {
    void vscode.window.showWarningMessage(t('The file changed since the edit: use Undo in the editor.'));
    return;
  }
  const back = new vscode.WorkspaceEdit();
  back.replace(document.uri, edited, original);
  await vscode.workspace.applyEdit(back);
}

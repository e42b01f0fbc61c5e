/**
 * "Fix with Model Gateway" in the light bulb of an error or a warning: the lines the problems are on are
 * rewritten by the chat model (Edit Selection's engine, command.ts), told the problems in the editor's words.
 * Offered only when a chat model is set, so it is never a dead end.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import type { EditArguments } from './command.ts';
import { fixInstruction } from './fixInstruction.ts';

/** At most this many of the problems at the cursor are put in one request. */
const MAX_PROBLEMS = 5;

export function registerQuickFix(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const provider: vscode.CodeActionProvider = {
    provideCodeActions(document, _range, codeActionContext) {
      const problems = codeActionContext.diagnostics
        .filter((d) => d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning)
        .slice(0, MAX_PROBLEMS);
      if (problems.length === 0 || services.settings.current.model === '') return [];
      const first = Math.min(...problems.map((d) => d.range.start.line));
      // A range that ends at the start of a line ends on the line before it.
      const last = Math.max(...problems.map((d) => (d.range.end.character === 0 && d.range.end.line > d.range.start.line ? d.range.end.line - 1 : d.range.end.line)));
      // Whole lines, the last one's line break included, so the answer replaces lines with lines.
      const end = last + 1 < document.lineCount ? new vscode.Position(last + 1, 0) : document.lineAt(last).range.end;
      const args: EditArguments = {
        uri: document.uri,
        range: new vscode.Range(new vscode.Position(first, 0), end),
        instruction: fixInstruction(problems.map((d) => ({ message: d.message, source: d.source, code: d.code, line: d.range.start.line }))),
      };
      const action = new vscode.CodeAction(vscode.l10n.t('Fix with Model Gateway'), vscode.CodeActionKind.QuickFix);
      action.diagnostics = problems;
      action.command = { command: COMMANDS.editSelection, title: action.title, arguments: [args] };
      return [action];
    },
  };
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider([{ scheme: 'file' }, { scheme: 'untitled' }], provider, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
  );
}

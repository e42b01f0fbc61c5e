/**
 * `@gateway /terminal [question]`: the active terminal's last command (what ran, where, its exit code and output, read
 * from VS Code's terminal buffer) explained by the chat model, with an Insert into Terminal button for the command the
 * answer gives. Without a command run yet, a question about the shell is answered for this system and shell.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import { chatModelFor } from '../chat/chatModel.ts';
import { showView, streamAnswer } from '../chat/chatTurn.ts';
import { budgetChars, modelInputTokens } from '../chat/inputBudget.ts';
import { AnswerRenderer } from '../chat/render.ts';
import { failureView, noModelView } from '../chat/views.ts';
import { escapeMarkdown, explainError } from '../errors/explain.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { commandToInsert, terminalMessages } from './terminalPrompt.ts';
import type { LastCommand } from './lastCommand.ts';
import { maskSecrets } from './maskSecrets.ts';
import { shellOf } from './shellOf.ts';
import type { InsertTarget } from './terminalCommands.ts';

/** Output characters sent at most, whatever the model's context. */
const OUTPUT_CAP = 24_000;

export async function answerTerminal(services: ExtensionServices, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const { t } = services;
  const model = chatModelFor(request.model, services.settings.current.model);
  if (model === '') {
    showView(stream, noModelView(t));
    return { metadata: { failed: true } };
  }
  const terminal = vscode.window.activeTerminal;
  const question = request.prompt.trim();
  const last = await services.terminals.lastCommand(terminal);
  if (!last && question === '') {
    stream.markdown(escapeMarkdown(terminal
      ? t('No command has run in the terminal "{0}" yet (or its shell does not tell VS Code about commands). Run one, or ask a question: /terminal how do I find the largest files here?', terminal.name)
      : t('There is no terminal open. Run a command in one, or ask a question: /terminal how do I find the largest files here?')));
    // Nothing was asked: the turn stays out of the conversation a follow-up question sends.
    return { metadata: { command: 'terminal', failed: true } };
  }
  const abort = signalFromToken(token);
  const renderer = new AnswerRenderer({ thinking: t('Thinking'), thinkingProgress: t('Thinking…') });
  let requested = false;
  try {
    const client = await services.connection.require();
    const budget = budgetChars(await modelInputTokens(client, model, abort.signal), OUTPUT_CAP);
    const shell = shellOf(terminal);
    const messages = terminalMessages({ last, question, shell, platform: process.platform, budget, secrets: services.connection.secrets() });
    requested = true;
    await streamAnswer(client, model, messages, renderer, stream, abort.signal, t);
    // Under the answer: VS Code folds what comes before it into its progress steps.
    if (last) stream.markdown(`\n\n_${escapeMarkdown(about(last, terminal, services))}_`);
    const command = commandToInsert(renderer.answer, shell);
    if (command) {
      const target: InsertTarget = { text: command, ...(terminal ? { terminalName: terminal.name, processId: await terminal.processId } : {}) };
      stream.button({ title: t('Insert into Terminal'), command: COMMANDS.insertIntoTerminal, arguments: [target] });
    }
    // A follow-up question to @gateway is sent this turn as the model was asked it: the command, its output.
    const asked = messages.at(-1)?.content;
    return { metadata: { command: 'terminal', answer: renderer.answer, ...(typeof asked === 'string' ? { asked } : {}) } };
  } catch (error) {
    if (token.isCancellationRequested) return { metadata: { command: 'terminal', answer: renderer.answer } };
    if (renderer.answer !== '') stream.markdown('\n\n---\n\n');
    showView(stream, failureView(explainError(error, t, services.connection.secrets()), t));
    return { metadata: { failed: true } };
  } finally {
    abort.dispose();
    if (requested) services.connection.balanceMayHaveChanged();
  }
}

function about(last: LastCommand, terminal: vscode.Terminal | undefined, services: ExtensionServices): string {
  const { t } = services;
  // Masked: this line is in the chat history that later @gateway turns send.
  const masked = maskSecrets(last.command, services.connection.secrets());
  const command = masked.length > 120 ? `${masked.slice(0, 119)}…` : masked;
  const where = terminal ? terminal.name : '';
  if (last.running) return t('About "{0}", still running in the terminal "{1}"', command, where);
  if (last.exitCode === undefined) return t('About "{0}" in the terminal "{1}"', command, where);
  return t('About "{0}" in the terminal "{1}" (exit code {2})', command, where, last.exitCode);
}

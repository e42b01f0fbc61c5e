/**
 * `@gateway /compare <question>`: the same question to each model of modelGateway.compareModels at once (what a
 * gateway is for: many models behind one key), their answers shown one after the other as they stream, each with
 * its time to the first token, its time in all, its tokens and its cost, and a table of them all at the end. A
 * model that fails says why in its place; the others still answer. Compare turns are asides: a follow-up question
 * is not sent their answers.
 */
import * as vscode from 'vscode';
import { apply, showView } from '../chat/chatTurn.ts';
import { signalFromToken } from '../chat/abort.ts';
import { historyToMessages } from '../chat/history.ts';
import { referenceTexts } from '../chat/references.ts';
import { AnswerRenderer } from '../chat/render.ts';
import { compareNeedsModelsView, failureView } from '../chat/views.ts';
import { escapeMarkdown, explainError } from '../errors/explain.ts';
import { COMMANDS, PARTICIPANT_ID } from '../ids.ts';
import { repositoryInstructions, workspaceScope } from '../instructions/instructionFiles.ts';
import type { ExtensionServices } from '../services.ts';
import { compareTable, runLine, type ComparedModel } from './compareTable.ts';
import { ModelRun } from './modelRun.ts';

/** At most this many models in one comparison: each is a full request, paid for. */
export const MAX_COMPARED = 4;

export async function answerCompare(services: ExtensionServices, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const { t } = services;
  const models = services.settings.current.compareModels.slice(0, MAX_COMPARED);
  if (models.length < 2) {
    showView(stream, compareNeedsModelsView(t));
    return { metadata: { failed: true } };
  }
  if (request.prompt.trim() === '') {
    stream.markdown(t('Ask a question after `/compare`: {0} will each answer it.', models.join(', ')));
    return { metadata: { failed: true } };
  }
  const abort = signalFromToken(token);
  let asked = false;
  try {
    const client = await services.connection.require();
    const { references } = await referenceTexts(request.references, services.log);
    const instructions = await repositoryInstructions(services.settings.current, workspaceScope(vscode.window.activeTextEditor?.document.uri));
    const messages = historyToMessages([], PARTICIPANT_ID, { prompt: request.prompt, references, ...(instructions.text ? { system: instructions.text } : {}) });
    stream.progress(t('Asking {0}…', models.join(', ')));
    asked = true;
    const runs = models.map((model) => new ModelRun(model, () => client.chatStream({ model, messages, stream: true, stream_options: { include_usage: true } }, { signal: abort.signal })));
    const rows: ComparedModel[] = [];
    for (const run of runs) {
      stream.markdown(`${rows.length === 0 ? '' : '\n\n'}### ${escapeMarkdown(run.model)}\n\n`);
      const renderer = new AnswerRenderer({ thinking: t('Thinking'), thinkingProgress: t('Thinking…') });
      for await (const chunk of run.chunks()) apply(stream, renderer.push(chunk));
      apply(stream, renderer.finish());
      const result = await run.result;
      if (token.isCancellationRequested) return { metadata: { command: 'compare' } };
      const row: ComparedModel = { model: run.model, firstTokenMs: result.firstTokenMs, totalMs: result.totalMs, usage: result.usage, failed: result.error !== undefined };
      rows.push(row);
      if (result.error !== undefined) {
        const explanation = explainError(result.error, t, services.connection.secrets());
        services.log.warn(`@gateway /compare: ${run.model} failed: ${explanation.errorText}`);
        stream.markdown(`${renderer.answer === '' ? '' : '\n\n'}_${escapeMarkdown(t('{0} failed: {1}', run.model, explanation.errorText))}_`);
        continue;
      }
      if (renderer.answer.trim() === '' && renderer.reasoning.trim() === '') stream.markdown(t('_The model returned an empty answer._'));
      else if (renderer.finishReason === 'length') stream.markdown(`\n\n_${t('The answer was cut off: the model reached its output token limit.')}_`);
      stream.markdown(`\n\n_${escapeMarkdown(runLine(row, t))}_`);
    }
    stream.markdown(`\n\n---\n\n${compareTable(rows, t)}\n\n`);
    for (const row of rows) if (!row.failed) stream.button({ title: t('Chat with {0}', row.model), command: COMMANDS.useModel, arguments: [row.model] });
    return { metadata: { command: 'compare' } };
  } catch (error) {
    // Before any model was asked: the key, the address.
    if (token.isCancellationRequested) return { metadata: { command: 'compare' } };
    showView(stream, failureView(explainError(error, t, services.connection.secrets()), t));
    return { metadata: { failed: true } };
  } finally {
    abort.dispose();
    if (asked) services.connection.balanceMayHaveChanged();
  }
}

/**
 * A @gateway chat turn: the conversation of this participant plus the prompt, sent
 * to the gateway model picked under the chat input (else the configured one), the answer streamed into the chat as it arrives, the
 * reasoning shown apart, the stop button aborting the HTTP request, a failure
 * rendered as the contract's explanation with fix buttons.
 */
import * as vscode from 'vscode';
import { escapeMarkdown, explainError } from '../errors/explain.ts';
import { CODEBASE_SYSTEM, lookUpCodebase } from '../codebase/codebaseQuestion.ts';
import { chatModelFor } from './chatModel.ts';
import { LM_VENDOR, PARTICIPANT_ID } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { signalFromToken } from './abort.ts';
import { historyToMessages } from './history.ts';
import type { AnswerMetadata, Reference, Turn } from './history.ts';
import { referenceTexts } from './references.ts';
import { toolReferenceTexts } from './toolReferences.ts';
import { referenceNotesMarkdown } from './referenceNotes.ts';
import { AnswerRenderer } from './render.ts';
import { usageLine } from './usageLine.ts';
import type { ChatMessage, Usage } from '../../contract/index.ts';
import type { GatewayClient } from '../../client/index.ts';
import type { Translate } from '../translate.ts';
import type { DisplayOp } from './render.ts';
import { failureView, noModelView } from './views.ts';
import { repositoryInstructions, workspaceScope } from '../instructions/instructionFiles.ts';
import { systemText } from '../instructions/instructionsText.ts';
import type { ChatView } from './views.ts';

/** VS Code's history turns as the plain turns history.ts reads. */
export function plainTurns(history: vscode.ChatContext['history']): Turn[] {
  return history.map((turn): Turn => {
    if ('prompt' in turn) return { kind: 'request', participant: turn.participant, prompt: turn.prompt, command: turn.command };
    const markdown = turn.response.flatMap((part) => (part instanceof vscode.ChatResponseMarkdownPart ? [part.value.value] : []));
    return { kind: 'response', participant: turn.participant, command: turn.command, markdown, metadata: turn.result.metadata, failed: turn.result.errorDetails !== undefined };
  });
}

export function showView(stream: vscode.ChatResponseStream, view: ChatView): void {
  stream.markdown(view.markdown);
  for (const button of view.buttons) stream.button({ title: button.title, command: button.command, ...(button.arguments ? { arguments: button.arguments } : {}) });
}

export function apply(stream: vscode.ChatResponseStream, ops: readonly DisplayOp[]): void {
  for (const op of ops) {
    if (op.kind === 'progress') stream.progress(op.value);
    else stream.markdown(op.value);
  }
}

/**
 * Asks `model` with streaming and shows the answer as it comes (reasoning apart), then what the user should know
 * about it: empty, cut off at the token limit, and the usage line (tokens, and the cost where the gateway says it).
 */
export async function streamAnswer(
  client: GatewayClient,
  model: string,
  messages: ChatMessage[],
  renderer: AnswerRenderer,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
  t: Translate,
): Promise<void> {
  stream.progress(t('Asking {0}…', model));
  let usage: Usage | undefined;
  for await (const chunk of client.chatStream({ model, messages, stream: true, stream_options: { include_usage: true } }, { signal })) {
    apply(stream, renderer.push(chunk));
    if (chunk.usage) usage = chunk.usage;
  }
  apply(stream, renderer.finish());
  if (renderer.answer.trim() === '' && renderer.reasoning.trim() === '') {
    stream.markdown(t('_The model returned an empty answer._'));
  } else if (renderer.finishReason === 'length') {
    stream.markdown(`\n\n_${t('The answer was cut off: the model reached its output token limit.')}_`);
  }
  if (usage) stream.markdown(`\n\n_${usageLine(usage, t)}_`);
}

export async function answerChat(
  services: ExtensionServices,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { t, log } = services;
  const model = chatModelFor(request.model, services.settings.current.model);
  if (model === '') {
    showView(stream, noModelView(t));
    return { metadata: { failed: true } satisfies AnswerMetadata };
  }
  const abort = signalFromToken(token);
  const renderer = new AnswerRenderer({ thinking: t('Thinking'), thinkingProgress: t('Thinking…') });
  let requested = false;
  try {
    const client = await services.connection.require();
    // An image could be attached only because the model picked under the chat input takes images; @gateway asks that
    // model when it is the gateway's, else the configured one, of which nothing is known.
    const imageInput = request.model?.vendor === LM_VENDOR;
    const attached = await referenceTexts(request.references, log, imageInput);
    const tools = await toolReferenceTexts({ request, client, model, token, signal: abort.signal, secrets: services.connection.secrets(), log });
    if (tools.requested) requested = true;
    const references = [...attached.references, ...tools.references];
    const images = attached.images;
    const notes = [...attached.notes, ...tools.notes];
    if (notes.length > 0) stream.markdown(`${referenceNotesMarkdown(notes, t)}\n\n`);
    let found: Reference[] = [];
    /** What the index did, said under the answer (VS Code folds what comes before it into its progress steps). */
    let indexNote: string | null = null;
    if (request.command === 'codebase') {
      requested = true; // indexing is charged too
      const lookup = await lookUpCodebase(services, request.prompt, stream, token, abort.signal);
      if (lookup.kind === 'view') {
        showView(stream, lookup.view);
        return { metadata: { failed: true } satisfies AnswerMetadata };
      }
      indexNote = lookup.note;
      // An excerpt of a file attached whole (the editor's current file, a #file) would send its lines twice.
      found = lookup.references.filter((excerpt) => !references.some((attached) => excerpt.label.startsWith(`${attached.label}:`)));
    }
    const instructions = await repositoryInstructions(services.settings.current, workspaceScope(vscode.window.activeTextEditor?.document.uri));
    for (const file of instructions.files) stream.reference(file.uri);
    const system = systemText(instructions.text, request.command === 'codebase' ? CODEBASE_SYSTEM : undefined);
    const messages = historyToMessages(plainTurns(context.history), PARTICIPANT_ID, { prompt: request.prompt, references: [...references, ...found], images, ...(system ? { system } : {}) });
    requested = true;
    await streamAnswer(client, model, messages, renderer, stream, abort.signal, t);
    if (indexNote) stream.markdown(`\n\n_${escapeMarkdown(indexNote)}_`);
    return { metadata: { answer: renderer.answer } satisfies AnswerMetadata };
  } catch (error) {
    if (token.isCancellationRequested) {
      // Stopped by the user: keep what arrived, no error.
      return { metadata: { answer: renderer.answer } satisfies AnswerMetadata };
    }
    const explanation = explainError(error, t, services.connection.secrets());
    log.warn(`@gateway chat with ${model} failed: ${explanation.errorText}`);
    if (renderer.answer !== '' || renderer.reasoning !== '') stream.markdown('\n\n---\n\n');
    showView(stream, failureView(explanation, t));
    return { metadata: { failed: true } satisfies AnswerMetadata };
  } finally {
    abort.dispose();
    if (requested) services.connection.balanceMayHaveChanged();
  }
}

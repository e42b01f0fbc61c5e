/**
 * The gateway's models in VS Code's own chat model picker (vendor `model-gateway`):
 * listed from /v1/models, answered through /v1/chat/completions with streaming, with
 * VS Code tools mapped to OpenAI tools and tool calls mapped back, so Agent mode works.
 * The logic lives in the pure modules beside this file; this is the vscode glue.
 */
import * as vscode from 'vscode';
import type { ModelEntry } from '../../contract/index.ts';
import { signalFromToken } from '../chat/abort.ts';
import { explainError } from '../errors/explain.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS, LM_VENDOR } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { lmErrorKind, lmErrorMessage } from './errors.ts';
import type { LmMessageLike } from './messages.ts';
import { fallbackModelInfos, toModelInfos } from './modelInfo.ts';
import { estimateTokens } from '../tokens.ts';
import { estimateMessageTokens } from './tokenCount.ts';
import { sendChunksToSink } from './chunksToSink.ts';
import { buildChatRequest } from './request.ts';
import { ToolCallExtras } from './toolCallExtras.ts';

/** How long a model list is reused before /v1/models is asked again. */
const MODEL_CACHE_MS = 60_000;

type ThinkingPartCtor = new (value: string) => object;
/** LanguageModelThinkingPart exists at runtime in current VS Code but is not in the 1.104 stable API: use it when present. */
function thinkingPartCtor(): ThinkingPartCtor | undefined {
  const ctor = (vscode as unknown as { LanguageModelThinkingPart?: unknown }).LanguageModelThinkingPart;
  return typeof ctor === 'function' ? (ctor as ThinkingPartCtor) : undefined;
}

/** The models to offer and, when /v1/models could not be read, why (what is offered then is a fallback). */
interface ModelList {
  readonly models: vscode.LanguageModelChatInformation[];
  readonly failure?: unknown;
}

class GatewayLanguageModelProvider implements vscode.LanguageModelChatProvider, vscode.Disposable {
  readonly #services: ExtensionServices;
  readonly #emitter = new vscode.EventEmitter<void>();
  readonly #subscription: vscode.Disposable;
  #cache: { at: number; models: vscode.LanguageModelChatInformation[] } | undefined;
  #loading: Promise<ModelList> | undefined;
  #generation = 0;
  /** Thought signatures and the like, by call id, for the turn that sends the call back. */
  readonly #toolCallExtras: ToolCallExtras;

  readonly onDidChangeLanguageModelChatInformation = this.#emitter.event;

  constructor(services: ExtensionServices) {
    this.#services = services;
    this.#toolCallExtras = new ToolCallExtras(services.context.workspaceState);
    // A new base URL or key means a new model list.
    this.#subscription = services.connection.onDidChange(() => this.refresh());
  }

  refresh(): void {
    this.#generation++;
    this.#cache = undefined;
    this.#loading = undefined;
    this.#emitter.fire();
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, _token: vscode.CancellationToken): Promise<vscode.LanguageModelChatInformation[]> {
    const { connection, log } = this.#services;
    await connection.ready;
    if (!connection.client()) {
      if (options.silent) return [];
      const missing = connection.state.missing;
      log.info(`Language models: not configured (missing ${missing.join(', ')}); asking for it.`);
      try {
        await vscode.commands.executeCommand(missing.includes('baseUrl') ? COMMANDS.setBaseUrl : COMMANDS.setApiKey);
        await connection.reload();
      } catch (error) {
        log.warn(`Language models: the set-up command failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!connection.client()) {
        log.info('Language models: still not configured; no Model Gateway models are offered.');
        return [];
      }
    }
    if (this.#cache && Date.now() - this.#cache.at < MODEL_CACHE_MS) return this.#cache.models;
    this.#loading ??= this.#load(this.#generation);
    const loading = this.#loading;
    let list: ModelList;
    try {
      list = await loading;
    } finally {
      if (this.#loading === loading) this.#loading = undefined;
    }
    // Asked by the user (the model picker, Manage Models): an empty or unverified list says why, with its fixes.
    if (!options.silent && list.failure !== undefined) void showErrorWithFixes(this.#services, list.failure, this.#services.t('Model Gateway could not list its models'));
    return list.models;
  }

  async #load(generation: number): Promise<ModelList> {
    const { connection, log } = this.#services;
    const client = connection.client();
    if (!client) return { models: [] };
    let entries: ModelEntry[];
    try {
      entries = await client.chatModels();
    } catch (error) {
      const { settings, t } = this.#services;
      const explanation = explainError(error, t, connection.secrets());
      const offered = fallbackModelInfos(settings.current.model, this.#cache?.models, explanation.title, {
        detail: t('Model Gateway (not verified)'),
        tooltip: (id, why) => t('{0}: the configured model, not verified: the gateway could not list its models ({1}).', id, why),
      });
      const what = this.#cache?.models.length ? 'the last list is kept' : offered.length > 0 ? `offering the configured model "${offered[0]!.id}", not verified` : 'no model is configured, none offered';
      log.warn(`Language models: could not list models (${what}): ${lmErrorMessage(explanation)}`);
      return { models: offered, failure: error };
    }
    const models = toModelInfos(entries);
    const hidden = new Set(entries.map((e) => e.id)).size - models.length;
    log.info(`Language models: ${models.length} offered${hidden > 0 ? ` (${hidden} non-chat models hidden)` : ''}; tool calling: ${models.filter((m) => m.capabilities.toolCalling).length}.`);
    if (generation === this.#generation) this.#cache = { at: Date.now(), models };
    return { models };
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { connection, log, t } = this.#services;
    const Thinking = thinkingPartCtor();
    const abort = signalFromToken(token);
    let requested = false;
    try {
      const client = await connection.require();
      const plain: LmMessageLike[] = messages.map((message) => ({
        role: message.role,
        name: message.name,
        content: Thinking ? message.content.filter((part) => !(part instanceof Thinking)) : message.content,
      }));
      const request = buildChatRequest({
        model: model.id,
        messages: plain,
        tools: options.tools,
        toolMode: options.toolMode,
        modelOptions: options.modelOptions,
        toolCallExtras: this.#toolCallExtras,
        imageInput: model.capabilities.imageInput === true,
      });
      let thinkingWorks = Thinking !== undefined;
      requested = true;
      const outcome = await sendChunksToSink(client.chatStream(request, { signal: abort.signal }), {
        text: (value) => progress.report(new vscode.LanguageModelTextPart(value)),
        thinking: (value) => {
          if (!thinkingWorks || !Thinking) return;
          try {
            progress.report(new Thinking(value) as vscode.LanguageModelResponsePart);
          } catch {
            thinkingWorks = false; // this host does not take thinking parts: reasoning is left out
          }
        },
        toolCall: (call) => {
          this.#toolCallExtras.remember(call);
          progress.report(new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input));
        },
      });
      log.debug(`Language model ${model.id}: finish ${outcome.finishReason ?? 'none'}, ${outcome.textChars} chars, ${outcome.toolCalls} tool calls.`);
    } catch (error) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const explanation = explainError(error, t, connection.secrets());
      const message = lmErrorMessage(explanation, t);
      log.warn(`Language model ${model.id} failed: ${message}`);
      const kind = lmErrorKind(explanation);
      if (kind === 'NoPermissions') throw vscode.LanguageModelError.NoPermissions(message);
      if (kind === 'NotFound') throw vscode.LanguageModelError.NotFound(message);
      throw new vscode.LanguageModelError(message);
    } finally {
      abort.dispose();
      // An answer (or a part of one) was paid for: the balance and Usage view refresh (debounced, so Agent mode's bursts are one read).
      if (requested) connection.balanceMayHaveChanged();
    }
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return typeof text === 'string' ? estimateTokens(text) : estimateMessageTokens(text.content);
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#emitter.dispose();
  }
}

export function registerLanguageModelProvider(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const provider = new GatewayLanguageModelProvider(services);
  context.subscriptions.push(provider, vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, provider));
  // A provider's models are looked up lazily: ask once now, so that the first chat message finds them.
  void Promise.resolve(vscode.lm.selectChatModels({ vendor: LM_VENDOR })).then(undefined, (error: unknown) =>
    services.log.warn(`Language models: the first lookup failed: ${error instanceof Error ? error.message : String(error)}`),
  );
}

/**
 * One inline completion, from the editor's context to the ghost text (no vscode import, so the
 * integration tests run it against the real gateway): the cache first, then the model's remembered
 * route (fill-in-the-middle or chat), finding the route out on first use, and the answer cleaned.
 */
import type { ChatCompletion, ChatRequest, CompletionRequest, TextCompletion } from '../../contract/index.ts';
import { cleanCompletion } from './cleanup.ts';
import type { CompletionContext } from './context.ts';
import type { CompletionShape } from './lineMode.ts';
import { LruCache, contextKey } from './lruCache.ts';
import { chatFillRequest, fimRequest } from './requests.ts';
import { fimRefused, isAbort, routeKey } from './route.ts';
import type { CompletionRoute, RouteMemory } from './route.ts';

/** The part of GatewayClient a completion needs. */
export interface CompletionTransport {
  completion(request: CompletionRequest, options: { signal?: AbortSignal }): Promise<TextCompletion>;
  chat(request: ChatRequest, options: { signal?: AbortSignal }): Promise<ChatCompletion>;
}

export interface CompletionAsk {
  /** The gateway's address, as configured: the route is remembered per gateway and model. */
  readonly baseUrl: string;
  readonly model: string;
  readonly context: CompletionContext;
  readonly shape: CompletionShape;
  readonly signal?: AbortSignal;
}

export interface CompletionAnswer {
  /** The ghost text; '' when the model had nothing useful. */
  readonly text: string;
  readonly route: CompletionRoute;
  readonly fromCache: boolean;
}

export const CACHE_ENTRIES = 100;

export class CompletionEngine {
  readonly #memory: RouteMemory;
  readonly #cache = new LruCache<{ text: string; route: CompletionRoute }>(CACHE_ENTRIES);

  constructor(memory: RouteMemory) {
    this.#memory = memory;
  }

  /** Forget cached answers (a new model or gateway answers differently). */
  clearCache(): void {
    this.#cache.clear();
  }

  async complete(transport: CompletionTransport, ask: CompletionAsk): Promise<CompletionAnswer> {
    const { context } = ask;
    const cacheKey = contextKey(`${ask.baseUrl}|${ask.model}|${ask.shape.multiline ? 'block' : 'line'}`, context.path, context.prefix, context.suffix);
    const cached = this.#cache.get(cacheKey);
    if (cached) return { ...cached, fromCache: true };
    const answer = await this.#ask(transport, ask);
    this.#cache.set(cacheKey, answer);
    return { ...answer, fromCache: false };
  }

  async #ask(transport: CompletionTransport, ask: CompletionAsk): Promise<{ text: string; route: CompletionRoute }> {
    const key = routeKey(ask.baseUrl, ask.model);
    const known = this.#memory.get(key);
    if (known === 'chat') return { text: await this.#chat(transport, ask), route: 'chat' };
    let text: string;
    try {
      text = await this.#fim(transport, ask);
    } catch (fimError) {
      if (known === 'fim' || isAbort(fimError) || !fimRefused(fimError)) throw fimError;
      // Not served this way: try a chat turn once. If chat is refused too, the FIM refusal says more.
      let chatText: string;
      try {
        chatText = await this.#chat(transport, ask);
      } catch (chatError) {
        if (isAbort(chatError) || !fimRefused(chatError)) throw chatError;
        throw fimError;
      }
      this.#memory.set(key, 'chat');
      return { text: chatText, route: 'chat' };
    }
    if (known === undefined && text === '') {
      // Nothing useful from the first FIM answer: it may be a server that ignores `suffix`. A chat
      // turn decides; when it has nothing either, FIM stays.
      try {
        const chatText = await this.#chat(transport, ask);
        if (chatText !== '') {
          this.#memory.set(key, 'chat');
          return { text: chatText, route: 'chat' };
        }
      } catch (chatError) {
        if (isAbort(chatError)) throw chatError;
      }
    }
    this.#memory.set(key, 'fim');
    return { text, route: 'fim' };
  }

  async #fim(transport: CompletionTransport, ask: CompletionAsk): Promise<string> {
    const answer = await transport.completion(fimRequest(ask.model, ask.context, ask.shape), { signal: ask.signal });
    const raw = answer.choices[0]?.text ?? '';
    return cleanCompletion({ answer: raw, prefix: ask.context.prefix, suffix: ask.context.suffix, shape: ask.shape, fromChat: false });
  }

  async #chat(transport: CompletionTransport, ask: CompletionAsk): Promise<string> {
    const answer = await transport.chat(chatFillRequest(ask.model, ask.context, ask.shape), { signal: ask.signal });
    const raw = answer.choices[0]?.message.content ?? '';
    return cleanCompletion({ answer: raw, prefix: ask.context.prefix, suffix: ask.context.suffix, shape: ask.shape, fromChat: true });
  }
}

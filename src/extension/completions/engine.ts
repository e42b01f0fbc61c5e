/**
 * One inline completion, from the editor's context to the ghost text (no vscode import, so the
 * integration tests run it against the real gateway): the cache first, then the model's remembered
 * route (fill-in-the-middle or chat), finding the route out on first use, and the answer cleaned. After a 429
 * nothing is sent until the gateway's Retry-After has passed: typing would otherwise send a refused request per
 * keystroke (contract 7.2: wait and retry); the refusal is given again meanwhile, so the status bar keeps saying it.
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
/** How long to hold back after a 429 without Retry-After, and at most with one. */
export const RATE_LIMIT_PAUSE_MS = { default: 10_000, max: 60_000 } as const;

/** The hold-back a 429 asks for (the client's RateLimitError, read by shape), or null for any other failure. */
function rateLimitPauseMs(error: unknown): number | null {
  const { family, retryAfterMs } = (typeof error === 'object' && error !== null ? error : {}) as { family?: unknown; retryAfterMs?: unknown };
  if (family !== 'rate_limit') return null;
  const asked = typeof retryAfterMs === 'number' && retryAfterMs > 0 ? retryAfterMs : RATE_LIMIT_PAUSE_MS.default;
  return Math.min(asked, RATE_LIMIT_PAUSE_MS.max);
}

export class CompletionEngine {
  readonly #memory: RouteMemory;
  readonly #cache = new LruCache<{ text: string; route: CompletionRoute }>(CACHE_ENTRIES);
  #refused: { readonly until: number; readonly error: unknown } | undefined;

  constructor(memory: RouteMemory) {
    this.#memory = memory;
  }

  /** Forget cached answers (a new model or gateway answers differently) and a 429 being waited out. */
  clearCache(): void {
    this.#cache.clear();
    this.#refused = undefined;
  }

  async complete(transport: CompletionTransport, ask: CompletionAsk): Promise<CompletionAnswer> {
    const { context } = ask;
    const cacheKey = contextKey(`${ask.baseUrl}|${ask.model}|${ask.shape.multiline ? 'block' : 'line'}`, context.path, context.prefix, context.suffix);
    const cached = this.#cache.get(cacheKey);
    if (cached) return { ...cached, fromCache: true };
    if (this.#refused && Date.now() < this.#refused.until) throw this.#refused.error;
    let answer: { text: string; route: CompletionRoute };
    try {
      answer = await this.#ask(transport, ask);
    } catch (error) {
      const pause = rateLimitPauseMs(error);
      if (pause !== null) this.#refused = { until: Date.now() + pause, error };
      throw error;
    }
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

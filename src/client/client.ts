/**
 * GatewayClient: the contract's endpoints (status, models, chat, chat stream, balance) over
 * one keep-alive undici dispatcher. Every answer is validated with the contract's schemas and
 * every failure is a typed GatewayError (errors.ts). Only GETs are retried (retry.ts).
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  BILLING_DAILY_PATH,
  BILLING_SUBSCRIPTION_PATH,
  BILLING_USAGE_PATH,
  BillingDaily,
  BillingSubscription,
  BillingUsage,
  ChatCompletion,
  ChatCompletionChunk,
  ChatRequest,
  CompletionRequest,
  EmbeddingList,
  EmbeddingRequest,
  GATEWAY_VERSION,
  ImageList,
  ImageRequest,
  ModelList,
  STATUS_PATH,
  TextCompletion,
} from '../contract/index.ts';
import type { ModelEntry } from '../contract/index.ts';
import { parseJsonOrUndefined, interpretAnswer } from './responseBody.ts';
import { normalizeApiKey, redactKey } from './apiKey.ts';
import { computeBalance, usageDateRange } from './balance.ts';
import type { Balance } from '../contract/index.ts';
import { normalizeBaseUrl } from './baseUrl.ts';
import type { NormalizedBaseUrl } from './baseUrl.ts';
import { BadRequestError, GatewayError } from './errors.ts';
import { isChatModel, requestIdFromHeaders } from '../contract/index.ts';
import type { HeaderBag } from '../contract/index.ts';
import { explainAddress } from './addressProbe.ts';
import { DEFAULT_MAX_RETRIES, retryDelayMs, retryWait, shouldRetry } from './retry.ts';
import { chatChunks, completionAsChunk, isEventStream } from './sse.ts';
import { embeddingsOf, type Embeddings } from './embeddings.ts';
import { fetchImage, imageSources, imagesOf, refusesResponseFormat, type Images } from './images.ts';
import { createDispatcher, readText, send, transportError } from './transport.ts';
import type { Exchange } from './transport.ts';

export const DEFAULT_TIMEOUT_MS = 60_000;
/** The endpoints a caller's request fields (bodyDefaults) are added to. */
export type BodyEndpoint = 'chat' | 'completion' | 'image';
/** The least wait for an image: image models take tens of seconds, more at high quality. */
export const IMAGE_TIMEOUT_MS = 180_000;

export interface ResponseInfo {
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly durationMs: number;
  readonly requestId: string | null;
  /** Set when the request failed; never contains the key. */
  readonly error?: string;
}

export interface GatewayClientOptions {
  /** The gateway's address, with or without /v1 (contract 1.6). */
  baseUrl: string;
  apiKey?: string;
  /** Wait for response headers, and for streams the longest silence between chunks (default 60000). */
  timeoutMs?: number;
  proxy?: string;
  noProxy?: string;
  userAgent?: string;
  /** Retries of idempotent GETs (default 2); chat requests are never retried. */
  maxRetries?: number;
  /** One call per HTTP request, for a log line. */
  onResponse?: (info: ResponseInfo) => void;
  /**
   * Fields added to each chat, completion and image request for a model (the user's parameters for it); a field the
   * request sets itself is the request's.
   */
  bodyDefaults?: (model: string, endpoint: BodyEndpoint) => Readonly<Record<string, unknown>>;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface StatusResult {
  /** HTTP 200 or `success: true` (contract 4.1). */
  ok: boolean;
  httpStatus: number;
  body: unknown;
}

export type { Balance };

type Method = 'GET' | 'POST';

/** A request this client refuses to send: its body does not match the contract's schema. */
function invalidRequest(what: string, issue: z.core.$ZodIssue | undefined): BadRequestError {
  return new BadRequestError({ code: 'invalid_request', condition: 'invalid_request', detail: `The ${what} request is not valid (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'wrong shape'}).` });
}

export class GatewayClient {
  readonly baseUrl: NormalizedBaseUrl;
  /** What was trimmed from the key on the way in (tell the user), or null. */
  readonly apiKeyNote: string | null;
  readonly #configuredBaseUrl: string;
  readonly #key: string | null;
  readonly #dispatcher: Dispatcher;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #userAgent: string;
  readonly #onResponse: ((info: ResponseInfo) => void) | undefined;
  readonly #bodyDefaults: (model: string, endpoint: BodyEndpoint) => Readonly<Record<string, unknown>>;
  /** The address hint, found by probing at most once per client. */
  #addressHint: string | null | undefined;

  constructor(options: GatewayClientOptions) {
    this.#configuredBaseUrl = options.baseUrl;
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    const key = options.apiKey === undefined ? null : normalizeApiKey(options.apiKey);
    this.#key = key?.key ?? null;
    this.apiKeyNote = key?.note ?? null;
    this.#timeoutMs = options.timeoutMs !== undefined && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_TIMEOUT_MS;
    this.#maxRetries = Math.max(0, Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES));
    this.#userAgent = options.userAgent ?? `model-gateway-client/${GATEWAY_VERSION}`;
    this.#onResponse = options.onResponse;
    this.#bodyDefaults = options.bodyDefaults ?? (() => ({}));
    this.#dispatcher = createDispatcher({ proxy: options.proxy, noProxy: options.noProxy });
  }

  /** GET /api/status (contract 4.1), without the key. Throws only when nothing answers. */
  async status(options: RequestOptions = {}): Promise<StatusResult> {
    const url = `${this.baseUrl.root}${STATUS_PATH}`;
    const { status, text } = await this.#get(url, options.signal, (exchange, text) => ({ status: exchange.status, text }), {
      retry: true,
      withKey: false,
      retryIf: (answer) => shouldRetry(answer.status),
    });
    const json = parseJsonOrUndefined(text);
    const body = json === undefined ? text : json;
    const success = typeof json === 'object' && json !== null && (json as { success?: unknown }).success === true;
    return { ok: status === 200 || success, httpStatus: status, body };
  }

  /** GET /v1/models (contract 4.2). */
  async models(options: RequestOptions = {}): Promise<ModelEntry[]> {
    const list = await this.#getJson(`${this.baseUrl.apiBase}/models`, ModelList, 'a model list', options.signal);
    return list.data;
  }

  /** The models a chat can use: kind chat, or no kind (other gateways do not say). */
  async chatModels(options: RequestOptions = {}): Promise<ModelEntry[]> {
    return (await this.models(options)).filter(isChatModel);
  }

  /** POST /v1/chat/completions without streaming (contract 4.3). Never retried. */
  async chat(request: ChatRequest, options: RequestOptions = {}): Promise<ChatCompletion> {
    const url = `${this.baseUrl.apiBase}/chat/completions`;
    const body = this.#chatBody(request, false);
    try {
      return await this.#once('POST', url, body, options.signal, (exchange, text) => interpretAnswer(exchange.status, exchange.headers, text, ChatCompletion, 'a chat completion'));
    } catch (error) {
      throw await this.#explain(error, options.signal);
    }
  }

  /**
   * POST /v1/completions without streaming: a prompt, and a `suffix` for fill-in-the-middle (inline code
   * completion). Never retried; the signal aborts the HTTP request itself.
   */
  async completion(request: CompletionRequest, options: RequestOptions = {}): Promise<TextCompletion> {
    const url = `${this.baseUrl.apiBase}/completions`;
    const parsed = CompletionRequest.safeParse(request);
    if (!parsed.success) throw invalidRequest('completion', parsed.error.issues[0]);
    const body = JSON.stringify({ ...this.#bodyDefaults(parsed.data.model, 'completion'), ...parsed.data, stream: false });
    try {
      return await this.#once('POST', url, body, options.signal, (exchange, text) => interpretAnswer(exchange.status, exchange.headers, text, TextCompletion, 'a text completion'));
    } catch (error) {
      throw await this.#explain(error, options.signal);
    }
  }

  /**
   * POST /v1/embeddings for several texts, asked as base64 float32 (a quarter of the bytes of numbers); the vectors
   * come back in input order. Never retried.
   */
  async embeddings(request: { readonly model: string; readonly input: readonly string[]; readonly dimensions?: number }, options: RequestOptions = {}): Promise<Embeddings> {
    const url = `${this.baseUrl.apiBase}/embeddings`;
    const parsed = EmbeddingRequest.safeParse({ ...request, input: [...request.input], encoding_format: 'base64' });
    if (!parsed.success) throw invalidRequest('embeddings', parsed.error.issues[0]);
    try {
      return await this.#once('POST', url, JSON.stringify(parsed.data), options.signal, (exchange, text) =>
        embeddingsOf(interpretAnswer(exchange.status, exchange.headers, text, EmbeddingList, 'an embeddings answer'), request.input.length, exchange.status, exchange.headers),
      );
    } catch (error) {
      throw await this.#explain(error, options.signal);
    }
  }

  /**
   * POST /v1/images/generations: the images as bytes. Asked as base64; a gateway that refuses `response_format`
   * (the GPT image models always send base64) is asked again without it, and an image answered as an http(s) URL
   * is fetched (without the key: the URL is the upstream's, not the gateway's). Waits at least IMAGE_TIMEOUT_MS,
   * which image models need. The user's parameters for the model (bodyDefaults: quality, style) go under the
   * request's fields. Never retried otherwise.
   */
  async images(request: { readonly model: string; readonly prompt: string; readonly n?: number; readonly size?: string; readonly quality?: string }, options: RequestOptions = {}): Promise<Images> {
    const url = `${this.baseUrl.apiBase}/images/generations`;
    const timeoutMs = Math.max(this.#timeoutMs, IMAGE_TIMEOUT_MS);
    const ask = (asBase64: boolean) => {
      const parsed = ImageRequest.safeParse({ ...this.#bodyDefaults(request.model, 'image'), ...request, ...(asBase64 ? { response_format: 'b64_json' } : {}) });
      if (!parsed.success) throw invalidRequest('images', parsed.error.issues[0]);
      return this.#once('POST', url, JSON.stringify(parsed.data), options.signal, (exchange, text) => {
        const answer = interpretAnswer(exchange.status, exchange.headers, text, ImageList, 'an images answer');
        return { answer, status: exchange.status, headers: exchange.headers, sources: imageSources(answer, exchange.status, exchange.headers) };
      }, true, timeoutMs);
    };
    try {
      const { answer, status, headers, sources } = await ask(true).catch((error: unknown) => (refusesResponseFormat(error) ? ask(false) : Promise.reject(error)));
      const bytes = await Promise.all(sources.map((source) => (source.kind === 'bytes' ? source.bytes : fetchImage(this.#dispatcher, this.#userAgent, source.url, options.signal, timeoutMs))));
      return imagesOf(answer, bytes, status, headers);
    } catch (error) {
      throw await this.#explain(error, options.signal);
    }
  }


  /**
   * POST /v1/chat/completions with `stream: true`, as typed chunks. Leaving the loop early
   * aborts the request; a stream that ends without `[DONE]` or carries an error throws.
   */
  async *chatStream(request: ChatRequest, options: RequestOptions = {}): AsyncGenerator<ChatCompletionChunk, void, undefined> {
    const url = `${this.baseUrl.apiBase}/chat/completions`;
    const body = this.#chatBody(request, true);
    const { signal } = options;
    const started = performance.now();
    let exchange: Exchange | null = null;
    let finished = false;
    let failure: GatewayError | undefined;
    try {
      exchange = await send(this.#dispatcher, { method: 'POST', url, headers: this.#headers('text/event-stream', true), body, timeoutMs: this.#timeoutMs, signal });
      if (exchange.status >= 400 || !isEventStream(exchange.headers)) {
        const text = await readText(exchange, signal, url);
        finished = true;
        // Not a stream: an error, a web page, or a gateway that answered with the whole completion.
        yield completionAsChunk(interpretAnswer(exchange.status, exchange.headers, text, ChatCompletion, 'a chat completion stream'));
        return;
      }
      for await (const chunk of chatChunks(exchange.body, exchange.headers)) yield chunk;
      finished = true;
    } catch (error) {
      failure = transportError(error, signal, url);
      throw await this.#explain(failure, signal);
    } finally {
      if (!finished) exchange?.abort();
      exchange?.release();
      this.#log('POST', url, started, exchange?.status ?? failure?.status ?? null, exchange?.headers, failure);
    }
  }

  /** The key's balance from the billing endpoints. */
  async balance(options: RequestOptions = {}): Promise<Balance> {
    const subscription = await this.#getJson(`${this.baseUrl.root}${BILLING_SUBSCRIPTION_PATH}`, BillingSubscription, 'a billing subscription', options.signal);
    const usageUrl = `${this.baseUrl.root}${BILLING_USAGE_PATH}`;
    let usage: BillingUsage;
    try {
      usage = await this.#getJson(usageUrl, BillingUsage, 'a billing usage', options.signal, false);
    } catch (error) {
      // Some gateways (and OpenAI's old API) want a date range on the usage endpoint.
      if (!(error instanceof GatewayError) || !['bad_request', 'not_found', 'invalid_response'].includes(error.family)) throw error;
      usage = await this.#getJson(`${usageUrl}?${usageDateRange()}`, BillingUsage, 'a billing usage', options.signal);
    }
    return computeBalance(subscription.hard_limit_usd, usage.total_usage);
  }

  /**
   * The key's spending on each of the last `days` days in the caller's time zone (`utcOffsetMinutes`, as
   * -Date#getTimezoneOffset() gives it), from this project's gateway. Others lack the endpoint: a
   * GatewayError (404, or invalid_response for a console page) says so, and the caller shows totals only.
   */
  async dailyUsage(days: number, utcOffsetMinutes: number, options: RequestOptions = {}): Promise<BillingDaily> {
    const url = `${this.baseUrl.root}${BILLING_DAILY_PATH}?days=${days}&utc_offset_minutes=${utcOffsetMinutes}`;
    return this.#getJson(url, BillingDaily, 'a daily usage', options.signal, false);
  }

  /** Release the dispatcher's connections. */
  async close(): Promise<void> {
    await this.#dispatcher.close();
  }

  #chatBody(request: ChatRequest, stream: boolean): string {
    const parsed = ChatRequest.safeParse(request);
    if (!parsed.success) throw invalidRequest('chat', parsed.error.issues[0]);
    const { stream_options: streamOptions, ...own } = parsed.data;
    const rest = { ...this.#bodyDefaults(own.model, 'chat'), ...own };
    return JSON.stringify(stream ? { ...rest, stream: true, ...(streamOptions ? { stream_options: streamOptions } : {}) } : { ...rest, stream: false });
  }

  #headers(accept: string, json: boolean, withKey = true): Record<string, string> {
    const headers: Record<string, string> = { accept, 'user-agent': this.#userAgent };
    if (json) headers['content-type'] = 'application/json';
    if (withKey && this.#key !== null) headers['authorization'] = `Bearer ${this.#key}`;
    return headers;
  }

  #log(method: Method, url: string, started: number, status: number | null, headers: HeaderBag, error?: GatewayError): void {
    if (!this.#onResponse) return;
    const info: ResponseInfo = {
      method,
      path: new URL(url).pathname,
      status,
      durationMs: Math.round(performance.now() - started),
      requestId: requestIdFromHeaders(headers) ?? error?.requestId ?? null,
      ...(error ? { error: redactKey(`${error.name}${error.code ? ` [${error.code}]` : ''}: ${error.message}`, this.#key) } : {}),
    };
    try {
      this.#onResponse(info);
    } catch {
      // A logger must never break a request.
    }
  }

  /** One HTTP exchange whose body is read whole and handed to `interpret`. */
  async #once<T>(method: Method, url: string, body: string | undefined, signal: AbortSignal | undefined, interpret: (exchange: Exchange, text: string) => T, withKey = true, timeoutMs = this.#timeoutMs): Promise<T> {
    const started = performance.now();
    let exchange: Exchange | undefined;
    try {
      exchange = await send(this.#dispatcher, { method, url, headers: this.#headers('application/json', body !== undefined, withKey), ...(body === undefined ? {} : { body }), timeoutMs, signal });
      const text = await readText(exchange, signal, url);
      const value = interpret(exchange, text);
      this.#log(method, url, started, exchange.status, exchange.headers);
      return value;
    } catch (error) {
      const failure = transportError(error, signal, url);
      this.#log(method, url, started, exchange?.status ?? null, exchange?.headers, failure);
      throw failure;
    } finally {
      exchange?.release();
    }
  }

  /** A GET, retried on 408/409/429/5xx and connection failures (and when `retryIf` says so), honouring Retry-After. */
  async #get<T>(url: string, signal: AbortSignal | undefined, interpret: (exchange: Exchange, text: string) => T, options: { retry: boolean; withKey?: boolean; retryIf?: (value: T) => boolean }): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let headers: HeaderBag = undefined;
      const remember = (exchange: Exchange, text: string): T => {
        headers = exchange.headers;
        return interpret(exchange, text);
      };
      try {
        const value = await this.#once('GET', url, undefined, signal, remember, options.withKey);
        if (!options.retry || attempt >= this.#maxRetries || !options.retryIf?.(value)) return value;
      } catch (error) {
        if (!options.retry || !(error instanceof GatewayError) || attempt >= this.#maxRetries || !shouldRetry(error)) throw error;
      }
      await retryWait(retryDelayMs(attempt + 1, headers), signal);
    }
  }

  /** GET a JSON resource, validated; retried unless told not to; path errors get an address hint. */
  async #getJson<S extends z.ZodType>(url: string, schema: S, what: string, signal: AbortSignal | undefined, retry = true): Promise<z.output<S>> {
    try {
      return await this.#get(url, signal, (exchange, text) => interpretAnswer(exchange.status, exchange.headers, text, schema, what), { retry });
    } catch (error) {
      throw await this.#explain(error, signal);
    }
  }

  /** Add the /v1 hint to a path error, probing the other forms of the address once per client. */
  async #explain(error: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    if (!(error instanceof GatewayError)) return error;
    const hint = await explainAddress(error, {
      configured: this.#configuredBaseUrl,
      base: this.baseUrl,
      cached: this.#addressHint,
      probe: (url) => this.#once('GET', url, undefined, signal, (exchange, text) => ({ status: exchange.status, headers: exchange.headers, text })),
    });
    if (hint !== undefined) {
      this.#addressHint = hint;
      if (error.hint === null) error.hint = hint;
    }
    return error;
  }
}

/**
 * The seam between the gateway core (auth, accounting, logs: src/gateway/*) and the
 * relay (upstream selection, forwarding, streaming: src/gateway/relay/*).
 * The core decides *whether* a request may run and what it may cost; the relay
 * decides *where* it runs and writes the successful answer to the client.
 */
import type { ServerResponse } from 'node:http';
import type { ChannelType, ChatRequest, CompletionRequest, EmbeddingRequest, ErrorCode, ImageRequest, MessagesRequest, ResponsesRequest } from '../../contract/index.ts';

export interface ChannelTimeouts {
  /** TCP/TLS connect. */
  readonly connectMs: number;
  /** From sending the request to the upstream's response headers (and, for streams, its first chunk). */
  readonly firstByteMs: number;
  /** Longest silence between two chunks of a body once it has started. */
  readonly idleMs: number;
}

export interface Channel {
  readonly id: number;
  readonly name: string;
  readonly type: ChannelType;
  /** The upstream's base URL (https://api.openai.com/v1, https://api.anthropic.com); null for echo. */
  readonly baseUrl: string | null;
  /** The upstream's own key; never logged. */
  readonly apiKey: string | null;
  /** Platform model name -> upstream model name (identity when not mapped). */
  readonly models: ReadonlyMap<string, string>;
  /** Higher priority is tried first; within one priority, channels are picked by weight. */
  readonly priority: number;
  readonly weight: number;
  readonly timeouts: ChannelTimeouts;
  /** Optional HTTP proxy URL for reaching this upstream. */
  readonly proxy: string | null;
  /** An openai channel whose upstream has the Responses API: Responses requests pass through to it unchanged. */
  readonly responsesApi: boolean;
}

/** Which endpoint the request came to, and its validated body (unknown fields must reach the upstream untouched). */
export type RelayOperation =
  | { readonly operation: 'chat'; readonly body: ChatRequest }
  | { readonly operation: 'completion'; readonly body: CompletionRequest }
  | { readonly operation: 'embedding'; readonly body: EmbeddingRequest }
  | { readonly operation: 'image'; readonly body: ImageRequest }
  | { readonly operation: 'messages'; readonly body: MessagesRequest }
  | { readonly operation: 'responses'; readonly body: ResponsesRequest };

export type RelayRequest = RelayOperation & RelayRequestFields;

interface RelayRequestFields {
  readonly requestId: string;
  /** The key the request came with: with `model`, what prompt-cache affinity remembers a channel for. */
  readonly keyId: number;
  /** The platform model name the client asked for; answers carry this name in `model`. */
  readonly model: string;
  /** Chat and completions only: the answer is an event stream. */
  readonly stream: boolean;
  /** The client asked for `stream_options.include_usage`; otherwise the usage chunk is not passed on. */
  readonly clientWantsUsage: boolean;
  /**
   * Upper bound on completion tokens the account can pay for. When the client set no
   * max_tokens / max_completion_tokens, or set a larger one, the relay sends this cap upstream.
   * null means no cap is needed (free model).
   */
  readonly maxCompletionTokens: number | null;
  /** The answers generated, each up to maxCompletionTokens (`n`, `best_of`, several prompts): the whole answer's cap is their product. */
  readonly choices?: number;
  /** Enabled channels that serve `model`, in any order: the relay orders them by priority and weight. */
  readonly channels: readonly Channel[];
  /**
   * The client's `anthropic-version` and `anthropic-beta` headers (lower-case names), forwarded unchanged
   * to an `anthropic` channel; empty when it sent none.
   */
  readonly anthropicHeaders: Readonly<Record<string, string>>;
  /** What `usage` is charged, in micro-USD (never more than was reserved): reported to OpenAI-style clients as usage.cost. */
  readonly costOf?: (usage: RelayUsage) => number;
  /** Header pairs the answer carries besides the relay's own (X-Gateway-Max-Tokens when the gateway capped it). */
  readonly answerHeaders?: readonly string[] | undefined;
  /** Where the answer goes. The core has already set X-Request-Id. */
  readonly res: ServerResponse;
  /** Aborts when the client disconnects (or the server stops); the upstream request must abort with it. */
  readonly signal: AbortSignal;
}

export interface RelayUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** True when the upstream reported no usage and the relay counted or estimated it. */
  readonly estimated: boolean;
  /** Images delivered (image generation, billed per image); absent elsewhere. */
  readonly images?: number;
  /** Of promptTokens: read from the upstream's prompt cache (OpenAI cached_tokens, Anthropic cache_read_input_tokens). */
  readonly cacheReadTokens?: number;
  /** Of promptTokens: written to the upstream's prompt cache (Anthropic cache_creation_input_tokens). */
  readonly cacheWriteTokens?: number;
  /** Of completionTokens: the model's reasoning, when the upstream says (OpenAI's reasoning_tokens); told on, never priced apart. */
  readonly reasoningTokens?: number;
}

/** A channel tried before the one that ended the request: what went wrong there, and how long it took. */
export interface FailedAttempt {
  readonly channel: string;
  readonly code: string;
  readonly detail: string;
  readonly ms: number;
}

interface RelayOutcomeBase {
  /** Name of the channel that served (or last failed), null when none was tried. */
  readonly channel: string | null;
  /** The channels that failed before (for a failed outcome, all of them), in order; absent when none did. */
  readonly attempts?: readonly FailedAttempt[];
  /** Milliseconds from relay start to the first byte written to the client; null when nothing was written. */
  readonly firstByteMs: number | null;
  /** What was generated (and so is charged), even when the request failed or was aborted midway. */
  readonly usage: RelayUsage;
}

/** The answer was written to the client, completely. */
export interface RelaySuccess extends RelayOutcomeBase {
  readonly kind: 'success';
  readonly status: number;
  /** The upstream streamed well past the cap it was sent: the gateway ended the answer at the length limit. */
  readonly cutAtCap?: boolean;
}

/** Nothing was written to the client: the core sends the contract error for `code`. */
export interface RelayFailureBeforeAnswer extends RelayOutcomeBase {
  readonly kind: 'failed';
  readonly code: ErrorCode;
  /** Detail for the error message (upstream status, timeout), never an upstream key. */
  readonly detail: string;
  /** For upstream_rate_limited: seconds the upstream asked to wait, when it said. */
  readonly retryAfterSeconds?: number;
  /**
   * Added by the relay (core: please honour it). Set when the upstream refused the request
   * itself: a 4xx other than 401/403/404/408/429, for example 400 for a parameter the model
   * does not take. That is the client's to fix and every channel would refuse it too, so
   * there is no failover. `code` is then `invalid_request` (`request_too_large` for 413) and
   * `detail` is the upstream's own message. Answer with `status` here instead of
   * ERROR_CODES[code].status, with our usual body (our `type`, `code`, detail, request id).
   * (Upstream 401/403/404 are the channel's fault, a wrong upstream key or model mapping:
   * those fail over and end as `upstream_error`, never as the client's 401/403/404.)
   */
  readonly upstreamRejection?: { readonly status: number; readonly message: string };
}

/**
 * The answer had started and then broke (upstream reset, timeout between chunks) or the
 * client went away. The relay has already ended the response (SSE error event, no [DONE]).
 */
export interface RelayBrokenAnswer extends RelayOutcomeBase {
  readonly kind: 'broken';
  readonly code: ErrorCode;
  readonly detail: string;
  /**
   * The request's signal aborted (client gone, or server stopping). Nobody reads an error
   * then: `code` is `upstream_error` by convention; log it as cancelled by the client.
   * `usage` is what was generated until then (estimated when the upstream had not said).
   */
  readonly clientAborted: boolean;
}

export type RelayOutcome = RelaySuccess | RelayFailureBeforeAnswer | RelayBrokenAnswer;

/** Made by createRelay (src/gateway/relay/index.ts) for one gateway, over its own pools and providers. */
export type RelayChat = (request: RelayRequest) => Promise<RelayOutcome>;

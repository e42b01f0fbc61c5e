/**
 * What differs between the relayed endpoints: the body's schema, whether it streams, and what to
 * reserve. Reservations cover each kind's worst case: the prompt and every choice's completion cap
 * for text, the input for embeddings, `n` times the price for images.
 */
import type { z } from 'zod';
import { ChatRequest, CompletionRequest, EmbeddingRequest, ImageRequest, MessagesRequest, MIN_THINKING_BUDGET, ResponsesRequest, thinkingBudgetOf, type ModelKind } from '../../contract/index.ts';
import { planImageReservation, planReservation, promptTokenBound, type ReservationPlan } from '../accounts/ledger.ts';
import { pricePerImage } from '../accounts/imagePrices.ts';
import type { RelayOperation } from '../relay/types.ts';
import type { ModelRecord } from '../store/types.ts';
import { HttpError } from '../http/errors.ts';

export interface Endpoint<Body> {
  readonly kind: ModelKind;
  /** For messages: "the <format> format". */
  readonly format: string;
  readonly schema: z.ZodType<Body>;
  operation(body: Body): RelayOperation;
  stream(body: Body): boolean;
  clientWantsUsage(body: Body): boolean;
  /** The model's prices as they apply to this request (an image's price depends on its size and quality). */
  priced?(body: Body, model: ModelRecord): ModelRecord;
  /** The completion cap the client asked for, or null for none (and for kinds without completions). */
  askedCap(body: Body): number | null;
  /** What to hold for the request, or null when `available` cannot pay for it. */
  plan(available: number, bodyBytes: number, body: Body, model: ModelRecord): ReservationPlan | null;
  /** The answers generated, each up to the completion cap (`n`, `best_of`, several prompts); absent: one. */
  choices?(body: Body): number;
  /** A request this gateway cannot serve as asked, though its format allows it (state it does not keep); null for none. */
  refusal?(body: Body): HttpError | null;
}

/** Whether a body's `tools` holds any (a provider then adds its tool prompt, ledger.ts). */
const hasTools = (tools: unknown): boolean => Array.isArray(tools) && tools.length > 0;
/** Whether a response format asks for JSON (on an anthropic channel it becomes a tool). */
const isJsonFormat = (format: unknown): boolean => {
  const type = format !== null && typeof format === 'object' ? (format as { type?: unknown }).type : undefined;
  return type !== undefined && type !== null && type !== 'text';
};

/**
 * A message thread (Anthropic's `thread`, beta message-threads) is history the upstream keeps: the gateway keeps none,
 * and could not reserve for what it adds to the prompt. Refused as Anthropic refuses a request it cannot thread, so
 * its SDKs' tool runner goes on without a thread (sending the whole history each turn).
 */
const THREAD_REFUSAL = (): HttpError => new HttpError('invalid_request', 'thread: this gateway keeps no message threads: send the whole conversation in `messages` (the SDK\'s toolRunner does so by itself; a thread of your own: thread: false).', {}, { error_code: 'thread_unsupported_request', unsupported: ['thread'] });

const noStream = { stream: () => false, clientWantsUsage: () => false } as const;
/** OpenAI's streams carry usage when the client asks for it in stream_options. */
const streamsWithUsageOnRequest = {
  stream: (body: { stream?: boolean | null }) => body.stream === true,
  clientWantsUsage: (body: { stream_options?: { include_usage?: boolean | undefined } | null }) => body.stream_options?.include_usage === true,
} as const;
/** Messages and Responses answers always carry usage, streamed or not. */
const streamsWithUsage = { stream: (body: { stream?: boolean | null }) => body.stream === true, clientWantsUsage: () => true } as const;

export const CHAT: Endpoint<ChatRequest> = {
  kind: 'chat',
  format: 'chat completions',
  schema: ChatRequest,
  operation: (body) => ({ operation: 'chat', body }),
  ...streamsWithUsageOnRequest,
  askedCap: (body) => body.max_completion_tokens ?? body.max_tokens ?? null,
  choices: (body) => body.n ?? 1,
  plan: (available, bytes, body, model) =>
    planReservation(available, promptTokenBound(bytes, body.messages.length, hasTools(body['tools']) || isJsonFormat(body['response_format'])), CHAT.askedCap(body), model, CHAT.choices!(body)),
};

/** Anthropic's Messages API for chat models: `max_tokens` is required, and usage always comes with the answer. */
export const MESSAGES: Endpoint<MessagesRequest> = {
  kind: 'chat',
  format: 'Messages',
  schema: MessagesRequest,
  operation: (body) => ({ operation: 'messages', body }),
  ...streamsWithUsage,
  askedCap: (body) => body.max_tokens,
  refusal: (body) => (body['thread'] === undefined || body['thread'] === null || body['thread'] === false ? null : THREAD_REFUSAL()),
  plan: (available, bytes, body, model) =>
    planReservation(available, promptTokenBound(bytes, body.messages.length, hasTools(body.tools) || isJsonFormat((body['output_config'] as { format?: unknown } | null | undefined)?.format ?? body['output_format'])), body.max_tokens, model, 1, thinkingBudgetOf(body) === null ? undefined : MIN_THINKING_BUDGET + 1),
};

/** The OpenAI Responses API for chat models (what the Codex CLI speaks), served statelessly. */
export const RESPONSES: Endpoint<ResponsesRequest> = {
  kind: 'chat',
  format: 'Responses',
  schema: ResponsesRequest.refine((body) => !body.previous_response_id, {
    path: ['previous_response_id'],
    message: 'this gateway keeps no responses: send the whole conversation in `input` instead',
  }).refine((body) => body['conversation'] === undefined || body['conversation'] === null, {
    // The upstream would add the history it holds to the prompt: more than the body, and so than what was reserved.
    path: ['conversation'],
    message: 'this gateway keeps no conversations: send the whole conversation in `input` instead',
  }),
  operation: (body) => ({ operation: 'responses', body }),
  ...streamsWithUsage,
  askedCap: (body) => body.max_output_tokens ?? null,
  plan: (available, bytes, body, model) =>
    planReservation(available, promptTokenBound(bytes, typeof body.input === 'string' ? 1 : body.input.length, hasTools(body.tools) || isJsonFormat((body.text as { format?: unknown } | undefined)?.format)), body.max_output_tokens ?? null, model),
};

export const COMPLETION: Endpoint<CompletionRequest> = {
  kind: 'completion',
  format: 'completions',
  schema: CompletionRequest,
  operation: (body) => ({ operation: 'completion', body }),
  ...streamsWithUsageOnRequest,
  askedCap: (body) => body.max_tokens ?? null,
  // best_of answers are generated (and billed) even though only n are returned, for each prompt.
  choices: (body) => promptsOf(body) * Math.max(body.n ?? 1, body.best_of ?? 1),
  plan: (available, bytes, body, model) => planReservation(available, promptTokenBound(bytes, promptsOf(body)), body.max_tokens ?? null, model, COMPLETION.choices!(body)),
};

/** The prompts of a completions request: a text or a token array is one, a list of them each. */
function promptsOf(body: CompletionRequest): number {
  return typeof body.prompt === 'string' || typeof body.prompt[0] === 'number' ? 1 : body.prompt.length;
}

export const EMBEDDING: Endpoint<EmbeddingRequest> = {
  kind: 'embedding',
  format: 'embeddings',
  schema: EmbeddingRequest,
  operation: (body) => ({ operation: 'embedding', body }),
  ...noStream,
  askedCap: () => null,
  // Input only: an embedding has no completion, so no cap is sent.
  plan: (available, bytes, _body, model) => planReservation(available, promptTokenBound(bytes, 1), null, { ...model, outputPrice: 0, maxOutputTokens: null }),
};

export const IMAGE: Endpoint<ImageRequest> = {
  kind: 'image',
  format: 'image generation',
  schema: ImageRequest,
  operation: (body) => ({ operation: 'image', body }),
  ...noStream,
  askedCap: () => null,
  priced: (body, model) => ({ ...model, imagePrice: pricePerImage(model, body.size, body.quality) }),
  plan: (available, _bytes, body, model) => planImageReservation(available, body.n ?? 1, model),
};

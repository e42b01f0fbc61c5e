/**
 * The console's Playground (issue 10): a signed-in user chats with a model from the browser, charged to
 * their account like any other request. The browser holds no API key: the gateway relays the chat through
 * its normal relay (permission, limits, reservation, charge, request log) for a key of the account kept for
 * this purpose, named PLAYGROUND_KEY_NAME, made on first use and listed on the Keys page like any other, so
 * its spending and limits show and the user can disable it. The answer is always streamed: the events of
 * POST /v1/chat/completions with `stream: true`, the last chunk carrying `usage` with its `cost`.
 */
import { z } from 'zod';
import { ChatCompletionChunk } from '../chat.ts';
import { ModelName } from '../kinds.ts';
import { PLAYGROUND_KEY_NAME } from '../values.ts';
import { named } from './schema.ts';
import type { ApiRoute } from './route.ts';

export { PLAYGROUND_KEY_NAME };

export const PLAYGROUND_PATH = '/api/console/playground/chat';

/** A turn's text, at most (a pasted page is fine; the model's own context is the real limit). */
export const MAX_PLAYGROUND_TEXT = 100_000;
/** Turns in one conversation, at most. */
export const MAX_PLAYGROUND_TURNS = 100;

const PlaygroundTurn = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string().min(1).max(MAX_PLAYGROUND_TEXT),
});

/** POST /api/console/playground/chat. */
export const PlaygroundChatBody = named('PlaygroundChatBody', z.strictObject({
  model: ModelName.describe('a chat model open to the account (GET /api/console/models)'),
  system: z.string().max(MAX_PLAYGROUND_TEXT).optional().describe('the system prompt; absent or empty: none'),
  messages: z.array(PlaygroundTurn).min(1).max(MAX_PLAYGROUND_TURNS).describe('the conversation so far, oldest first, ending with the user\'s new turn'),
}));
export type PlaygroundChatBody = z.infer<typeof PlaygroundChatBody>;

/** Each event's data in the streamed answer (then `data: [DONE]`). */
export const PlaygroundChunk = named('PlaygroundChunk', ChatCompletionChunk, 'A chat.completion.chunk, as POST /v1/chat/completions streams it; the last one carries usage (tokens and cost in USD).');

export const PLAYGROUND_ROUTES = {
  playgroundChat: {
    method: 'POST', path: PLAYGROUND_PATH, tag: 'account', summary: 'Chat with a model from the console, streamed, charged to the account',
    description: `Relayed like POST /v1/chat/completions with stream: true, for the account's key named "${PLAYGROUND_KEY_NAME}" (made on first use; disable it on the Keys page to stop the playground): the key's model list, limits and spending limit apply, the account is charged and the request is logged under that key.`,
    auth: 'session', body: PlaygroundChatBody,
    response: { status: 200, schema: PlaygroundChunk, stream: 'a text/event-stream of chat.completion.chunk events, the last with usage (its cost in USD), then [DONE]; a failure after the stream began is an event {"error": {...}} in the contract\'s body' },
    errors: [
      'key_disabled', 'key_expired', 'ip_not_allowed', 'rate_limited', 'concurrency_limited', 'model_not_found', 'model_not_priced', 'wrong_endpoint',
      'model_not_permitted', 'upstream_unavailable', 'insufficient_balance', 'balance_in_use', 'key_spend_limit_reached', 'store_unavailable',
      'upstream_error', 'upstream_unavailable', 'upstream_timeout', 'upstream_rate_limited',
    ],
  },
} as const satisfies Record<string, ApiRoute>;

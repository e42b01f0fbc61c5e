/**
 * The playground's conversation as data: the turns shown, what one streamed event adds to the answer being
 * written (text, the usage with its cost, or an error event in the contract's body), and the body of the
 * next request (every finished turn, oldest first). Pure: the page keeps the state, this says what it is.
 */
import type { PlaygroundChatBody } from '../../contract/api/playground.ts';

/** What an answer cost and took, from its last chunk's usage and the browser's clock. */
export interface AnswerStats {
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  /** USD, as the answer's usage.cost says it. */
  readonly cost: number | null;
  readonly firstTokenMs: number | null;
  readonly totalMs: number;
}

/** An error event in the stream, in the contract's body (code and words). */
export interface StreamFailure {
  readonly code: string;
  readonly message: string;
}

/** One turn of the playground's conversation: the user's words, or an answer (arriving, stopped, failed or whole). */
export interface PlaygroundTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  /** An answer still arriving. */
  readonly writing?: boolean;
  readonly stopped?: boolean;
  readonly failure?: StreamFailure;
  readonly stats?: AnswerStats;
}

/** What one event's data says: more text, the usage, an error, or the end. */
export interface ChunkNews {
  readonly text: string;
  readonly usage: { readonly prompt: number; readonly completion: number; readonly cost: number | null } | null;
  readonly failure: StreamFailure | null;
  readonly done: boolean;
}

const NOTHING: ChunkNews = { text: '', usage: null, failure: null, done: false };

/** One event's data of the stream (a chat.completion.chunk, an error, or [DONE]). */
export function readChunk(data: string): ChunkNews {
  if (data === '[DONE]') return { ...NOTHING, done: true };
  let chunk: {
    choices?: { delta?: { content?: unknown } }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; cost?: unknown } | null;
    error?: { code?: unknown; message?: unknown };
  };
  try {
    chunk = JSON.parse(data);
  } catch {
    return NOTHING;
  }
  if (chunk.error) {
    return { ...NOTHING, failure: { code: String(chunk.error.code ?? 'upstream_error'), message: String(chunk.error.message ?? '') } };
  }
  let text = '';
  for (const choice of chunk.choices ?? []) if (typeof choice.delta?.content === 'string') text += choice.delta.content;
  const u = chunk.usage;
  const usage = u && typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number'
    ? { prompt: u.prompt_tokens, completion: u.completion_tokens, cost: typeof u.cost === 'number' ? u.cost : null }
    : null;
  return { text, usage, failure: null, done: false };
}

/** The request for the conversation so far: its finished, non-empty turns (a stopped answer counts as said). */
export function requestOf(model: string, system: string, turns: readonly PlaygroundTurn[]): PlaygroundChatBody {
  const messages = turns.filter((turn) => !turn.writing && turn.content !== '').map((turn) => ({ role: turn.role, content: turn.content }));
  return { model, ...(system.trim() ? { system } : {}), messages };
}

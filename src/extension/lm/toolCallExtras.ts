/**
 * What an upstream attached to a tool call besides its id, name and arguments, kept by call id until VS Code sends
 * the call back in the next request. Gemini 3's OpenAI-compatible API puts its thought signature there
 * (`extra_content.google.thought_signature`) and refuses a later turn whose tool call lacks it; VS Code's
 * LanguageModelToolCallPart carries only id, name and input. Bounded, the oldest forgotten first; the newest are
 * kept in the workspace's storage too, so that a chat continued after a window reload still sends them back.
 */
import type { CompletedToolCall } from './toolCalls.ts';

/** Calls remembered at most: far more than one Agent session's open tool calls. */
export const MAX_REMEMBERED_CALLS = 1000;
/** Of those, the newest kept across reloads (a signature is a few KB; the storage is written on each call). */
export const MAX_STORED_CALLS = 200;
export const STORAGE_KEY = 'modelGateway.toolCallExtras';

type Extra = Readonly<Record<string, unknown>>;

/** The part of VS Code's Memento (workspaceState) used here. */
export interface ExtrasStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** Stored entries as written by an earlier window: [callId, extra] pairs, anything else ignored. */
function storedEntries(value: unknown): [string, Extra][] {
  if (!Array.isArray(value)) return [];
  return value.filter((e): e is [string, Extra] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'object' && e[1] !== null && !Array.isArray(e[1]));
}

export class ToolCallExtras {
  readonly #byCallId = new Map<string, Extra>();
  readonly #storage: ExtrasStorage | undefined;

  constructor(storage?: ExtrasStorage) {
    this.#storage = storage;
    for (const [callId, extra] of storedEntries(storage?.get(STORAGE_KEY))) this.#byCallId.set(callId, extra);
  }

  remember(call: CompletedToolCall): void {
    if (!call.extra) return;
    this.#byCallId.delete(call.callId);
    this.#byCallId.set(call.callId, call.extra);
    if (this.#byCallId.size > MAX_REMEMBERED_CALLS) this.#byCallId.delete(this.#byCallId.keys().next().value!);
    if (this.#storage) void Promise.resolve(this.#storage.update(STORAGE_KEY, [...this.#byCallId].slice(-MAX_STORED_CALLS))).catch(() => undefined);
  }

  /** The extra fields of a call this provider streamed, or undefined. */
  of(callId: string): Readonly<Record<string, unknown>> | undefined {
    return this.#byCallId.get(callId);
  }
}

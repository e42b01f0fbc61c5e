/**
 * What an upstream attached to a tool call besides its id, name and arguments, kept by call id until VS Code sends
 * the call back in the next request. Gemini 3's OpenAI-compatible API puts its thought signature there
 * (`extra_content.google.thought_signature`) and refuses a later turn whose tool call lacks it; VS Code's
 * LanguageModelToolCallPart carries only id, name and input. Pure; bounded, the oldest forgotten first.
 */
import type { CompletedToolCall } from './toolCalls.ts';

/** Calls remembered at most: far more than one Agent session's open tool calls. */
export const MAX_REMEMBERED_CALLS = 1000;

export class ToolCallExtras {
  readonly #byCallId = new Map<string, Readonly<Record<string, unknown>>>();

  remember(call: CompletedToolCall): void {
    if (!call.extra) return;
    this.#byCallId.delete(call.callId);
    this.#byCallId.set(call.callId, call.extra);
    if (this.#byCallId.size > MAX_REMEMBERED_CALLS) this.#byCallId.delete(this.#byCallId.keys().next().value!);
  }

  /** The extra fields of a call this provider streamed, or undefined. */
  of(callId: string): Readonly<Record<string, unknown>> | undefined {
    return this.#byCallId.get(callId);
  }
}

/**
 * Streamed OpenAI tool calls, put back together. A call arrives as many
 * `delta.tool_calls[]` fragments that share an `index`: the id and name usually
 * come first, the JSON arguments in pieces split anywhere (even inside a token
 * or a multi-byte character's escape). Calls are complete when the choice
 * finishes (or the stream ends); only then are the arguments parsed, once.
 *
 * Pure: no vscode. The provider turns each CompletedToolCall into a
 * LanguageModelToolCallPart.
 */
import { randomUUID } from 'node:crypto';

/** The fields of one streamed tool-call fragment (contract ToolCallDelta). */
export interface ToolCallFragment {
  readonly index: number;
  readonly id?: string | undefined;
  readonly type?: string | undefined;
  readonly function?: { readonly name?: string | undefined; readonly arguments?: string | undefined } | undefined;
}

export interface CompletedToolCall {
  readonly callId: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** A tool call whose name is missing or whose arguments are not a JSON object. Match on `code`. */
export class ToolCallError extends Error {
  readonly code: 'tool_call_arguments_invalid' | 'tool_call_name_missing';
  readonly toolName: string;
  readonly callId: string;
  readonly rawArguments: string;

  constructor(code: ToolCallError['code'], message: string, call: { name: string; callId: string; rawArguments: string }) {
    super(message);
    this.name = 'ToolCallError';
    this.code = code;
    this.toolName = call.name;
    this.callId = call.callId;
    this.rawArguments = call.rawArguments;
  }
}

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

export class ToolCallAccumulator {
  readonly #calls = new Map<number, PartialCall>();
  readonly #newId: () => string;

  constructor(newId: () => string = () => `call_${randomUUID().replaceAll('-', '')}`) {
    this.#newId = newId;
  }

  /** True while fragments are held that finish() has not yet returned. */
  get pending(): boolean {
    return this.#calls.size > 0;
  }

  add(fragments: readonly ToolCallFragment[]): void {
    for (const fragment of fragments) {
      let call = this.#calls.get(fragment.index);
      if (!call) {
        call = { id: '', name: '', args: '' };
        this.#calls.set(fragment.index, call);
      }
      if (fragment.id && !call.id) call.id = fragment.id;
      const name = fragment.function?.name;
      // Most providers send the name once; some repeat it whole in every fragment.
      if (name && name !== call.name) call.name = call.name && !name.startsWith(call.name) ? call.name + name : name;
      const args = fragment.function?.arguments;
      if (args) call.args += args;
    }
  }

  /** The calls gathered so far, in index order, with parsed arguments; clears the accumulator. */
  finish(): CompletedToolCall[] {
    const ordered = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    this.#calls.clear();
    return ordered.map((call) => complete(call, this.#newId));
  }
}

function complete(call: PartialCall, newId: () => string): CompletedToolCall {
  const callId = call.id || newId();
  const raw = call.args;
  if (!call.name) {
    throw new ToolCallError('tool_call_name_missing', `The model sent a tool call without a tool name (arguments: ${preview(raw)}).`, { name: '', callId, rawArguments: raw });
  }
  if (raw.trim() === '') return { callId, name: call.name, input: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolCallError('tool_call_arguments_invalid', `The model called the tool "${call.name}" with arguments that are not valid JSON (${reason}): ${preview(raw)}`, { name: call.name, callId, rawArguments: raw });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ToolCallError('tool_call_arguments_invalid', `The model called the tool "${call.name}" with arguments that are not a JSON object: ${preview(raw)}`, { name: call.name, callId, rawArguments: raw });
  }
  return { callId, name: call.name, input: parsed as Record<string, unknown> };
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Streamed OpenAI tool calls, put back together. A call arrives as many
 * `delta.tool_calls[]` fragments that share an `index`: the id and name usually
 * come first, the JSON arguments in pieces split anywhere (even inside a token
 * or a multi-byte character's escape). Calls are complete when the choice
 * finishes (or the stream ends); only then are the arguments parsed, once.
 * Upstreams that stray are read too: a fragment without `index` (Gemini sends
 * each call whole that way) continues the call before it, and a fragment whose
 * id differs from its index's call starts a call of its own (some reuse index 0).
 *
 * Pure: no vscode. The provider turns each CompletedToolCall into a
 * LanguageModelToolCallPart.
 */
import { randomUUID } from 'node:crypto';

/** The fields of one streamed tool-call fragment (contract ToolCallDelta). */
export interface ToolCallFragment {
  readonly index?: number | null | undefined;
  readonly id?: string | undefined;
  readonly type?: string | undefined;
  readonly function?: { readonly name?: string | undefined; readonly arguments?: string | undefined } | undefined;
  readonly [other: string]: unknown;
}

export interface CompletedToolCall {
  readonly callId: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** Fields the upstream put on the call besides id, type and function (Gemini's `extra_content` thought signature); absent when none. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The fields of a streamed tool call that are its index, id, type and function; any other is kept as `extra`. */
const KNOWN_FIELDS = new Set(['index', 'id', 'type', 'function']);

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
  /** The upstream's index, or the arrival position for a call that came without one. */
  readonly index: number;
  id: string;
  name: string;
  args: string;
  extra: Record<string, unknown>;
}

export class ToolCallAccumulator {
  /** In arrival order. */
  readonly #calls: PartialCall[] = [];
  /** The latest call at each upstream index. */
  readonly #byIndex = new Map<number, PartialCall>();
  readonly #newId: () => string;

  constructor(newId: () => string = () => `call_${randomUUID().replaceAll('-', '')}`) {
    this.#newId = newId;
  }

  /** True while fragments are held that finish() has not yet returned. */
  get pending(): boolean {
    return this.#calls.length > 0;
  }

  add(fragments: readonly ToolCallFragment[]): void {
    for (const fragment of fragments) {
      const indexed = typeof fragment.index === 'number';
      let call = indexed ? this.#byIndex.get(fragment.index!) : this.#calls.at(-1);
      // A new id where a call already has another is another call, whatever the index says.
      if (!call || (fragment.id && call.id && fragment.id !== call.id)) {
        call = { index: indexed ? fragment.index! : this.#calls.length, id: '', name: '', args: '', extra: {} };
        this.#calls.push(call);
        if (indexed) this.#byIndex.set(call.index, call);
      }
      if (fragment.id && !call.id) call.id = fragment.id;
      const name = fragment.function?.name;
      // Most providers send the name once; some repeat it whole in every fragment.
      if (name && name !== call.name) call.name = call.name && !name.startsWith(call.name) ? call.name + name : name;
      const args = fragment.function?.arguments;
      if (args) call.args += args;
      for (const [key, value] of Object.entries(fragment)) if (!KNOWN_FIELDS.has(key) && value !== undefined && value !== null) call.extra[key] = value;
    }
  }

  /** The calls gathered so far, in index order (then arrival order), with parsed arguments; clears the accumulator. */
  finish(): CompletedToolCall[] {
    const ordered = this.#calls.map((call, order) => ({ call, order })).sort((a, b) => a.call.index - b.call.index || a.order - b.order).map(({ call }) => call);
    this.#calls.length = 0;
    this.#byIndex.clear();
    return ordered.map((call) => complete(call, this.#newId));
  }
}

function complete(call: PartialCall, newId: () => string): CompletedToolCall {
  const callId = call.id || newId();
  const raw = call.args;
  if (!call.name) {
    throw new ToolCallError('tool_call_name_missing', `The model sent a tool call without a tool name (arguments: ${preview(raw)}).`, { name: '', callId, rawArguments: raw });
  }
  const extra = Object.keys(call.extra).length > 0 ? { extra: call.extra } : {};
  if (raw.trim() === '') return { callId, name: call.name, input: {}, ...extra };
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
  return { callId, name: call.name, input: parsed as Record<string, unknown>, ...extra };
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

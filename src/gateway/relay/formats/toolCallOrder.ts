/**
 * A chat stream's tool calls put in the one-at-a-time order Messages blocks and Responses items need. Chat numbers
 * each fragment with its call, so an upstream may interleave calls: start call 1, then send more of call 0's
 * arguments. Messages forbids a delta after its block's stop (and Anthropic's SDK and Claude Code take a tool's input
 * at its stop); Responses' `.done` events carry the whole arguments. So a call is closed only when the next one may
 * start: when its arguments are a whole JSON object (none can be continued into valid JSON), or when the stream moves
 * past the calls (text, reasoning, its end). Until then a later call is held, its fragments gathered, and it goes out
 * in one piece when its turn comes. The common shapes (each call's fragments together, or each call whole) are
 * never held: a call's arguments are whole by the time the next call starts.
 */
import { argumentsOf } from './chatToolCalls.ts';
import { ToolCallSlots } from './toolCallSlots.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** What a converter writes: a call starts (closing what was open), or more arguments of the call it last started. */
export type CallStep =
  | { readonly kind: 'start'; readonly slot: number; readonly id: string; readonly name: string }
  | { readonly kind: 'arguments'; readonly slot: number; readonly text: string };

interface Call {
  readonly slot: number;
  id: string;
  readonly name: string;
  held: string;
}

function isWholeObject(text: string): boolean {
  // Only text that ends an object is parsed: parsing every fragment's whole text so far would cost the square of a
  // long call's length (a call of 20,000 fragments held the event loop for seconds).
  let end = text.length - 1;
  while (end >= 0 && (text[end] === ' ' || text[end] === '\n' || text[end] === '\r' || text[end] === '\t')) end--;
  if (end < 0 || text[end] !== '}') return false;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

export class ToolCallOrder {
  readonly #slots = new ToolCallSlots();
  /** The call whose fragments go out as they come, its arguments so far. */
  #streaming: { slot: number; text: string } | null = null;
  /** Calls that began while the streaming one was still incomplete, in arrival order. */
  readonly #waiting: Call[] = [];
  /** Slots already written (streaming or closed): a later fragment of a closed one has nowhere to go. */
  readonly #written = new Set<number>();

  /** How many calls were seen. */
  get count(): number {
    return this.#slots.count;
  }

  /** The steps one upstream fragment of `delta.tool_calls[]` leads to. */
  add(fragment: Json): CallStep[] {
    const slot = this.#slots.slotOf(fragment);
    const fn = (fragment['function'] ?? {}) as Json;
    const args = argumentsOf(fn);
    const id = asText(fragment['id']);
    if (this.#streaming?.slot === slot) {
      this.#streaming.text += args;
      const steps: CallStep[] = args ? [{ kind: 'arguments', slot, text: args }] : [];
      return this.#waiting.length > 0 && isWholeObject(this.#streaming.text) ? [...steps, ...this.#release(false)] : steps;
    }
    const waiting = this.#waiting.find((call) => call.slot === slot);
    if (waiting) {
      waiting.held += args;
      if (!waiting.id) waiting.id = id;
      return [];
    }
    // A fragment of a call already closed: its arguments were a whole object, which nothing can validly continue.
    if (this.#written.has(slot)) return [];
    const call: Call = { slot, id, name: asText(fn['name']), held: args };
    if (this.#streaming !== null && !isWholeObject(this.#streaming.text)) {
      this.#waiting.push(call);
      return [];
    }
    this.#waiting.push(call);
    return this.#release(false);
  }

  /** The stream moved past the calls (text, reasoning, its end): every held call, in order; none stays open here. */
  flush(): CallStep[] {
    const steps = this.#waiting.length > 0 ? this.#release(true) : [];
    this.#streaming = null;
    return steps;
  }

  /** Starts the first held call with what it gathered, and the next while the one before came whole (or `all`). */
  #release(all: boolean): CallStep[] {
    const steps: CallStep[] = [];
    let call: Call;
    do {
      call = this.#waiting.shift()!;
      this.#written.add(call.slot);
      this.#streaming = { slot: call.slot, text: call.held };
      steps.push({ kind: 'start', slot: call.slot, id: call.id, name: call.name });
      if (call.held) steps.push({ kind: 'arguments', slot: call.slot, text: call.held });
    } while (this.#waiting.length > 0 && (all || isWholeObject(call.held)));
    return steps;
  }
}

/**
 * Which call of a streamed chat answer a `delta.tool_calls[]` fragment belongs to. OpenAI numbers calls with
 * `index`; Gemini's OpenAI-compatible API sends each call whole without one, and some upstreams reuse index 0 for a
 * second call under a new id. A fragment without an index continues the call before it, and one whose id differs
 * from the id its index's call has starts a call of its own. Slots are numbered in arrival order.
 */

interface Call {
  readonly slot: number;
  id: string;
}

export class ToolCallSlots {
  readonly #byIndex = new Map<number, Call>();
  #last: Call | undefined;
  #count = 0;

  /** How many calls were seen. */
  get count(): number {
    return this.#count;
  }

  slotOf(fragment: Readonly<Record<string, unknown>>): number {
    const index = typeof fragment['index'] === 'number' ? fragment['index'] : null;
    const id = typeof fragment['id'] === 'string' ? fragment['id'] : '';
    let call = index === null ? this.#last : this.#byIndex.get(index);
    if (!call || (id !== '' && call.id !== '' && id !== call.id)) {
      call = { slot: this.#count++, id };
      if (index !== null) this.#byIndex.set(index, call);
    } else if (id !== '' && call.id === '') {
      call.id = id;
    }
    this.#last = call;
    return call.slot;
  }
}

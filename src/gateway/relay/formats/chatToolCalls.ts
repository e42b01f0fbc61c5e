/**
 * The tool calls of a chat answer's message or stream delta, as upstreams really send them: `tool_calls`, or the
 * legacy `function_call` (older servers and proxies) as the one call at index 0; and a call's arguments as JSON
 * text, also where an upstream sends them as an object (some Ollama and llama.cpp builds) instead of a string.
 */
type Json = Record<string, unknown>;

export function toolCallsOf(part: Json): Json[] {
  const calls = part['tool_calls'];
  if (Array.isArray(calls) && calls.length > 0) return calls as Json[];
  const legacy = part['function_call'];
  return legacy !== null && typeof legacy === 'object' ? [{ index: 0, type: 'function', function: legacy }] : [];
}

/** A call's arguments as text ('' when there are none). */
export function argumentsOf(fn: Json): string {
  const args = fn['arguments'];
  if (typeof args === 'string') return args;
  return args !== null && typeof args === 'object' ? JSON.stringify(args) : '';
}

/**
 * Responses tools can come in namespaces (the Codex CLI puts its sub-agent tools in
 * `multi_agent_v1`), and a call of one must come back with its `namespace`, or the client cannot
 * route it. Chat tools have one flat name: a namespaced tool keeps its own name there when no other
 * tool has it (its descriptions refer to it so), else `namespace__name`; the way back restores both.
 */
type Json = Record<string, unknown>;

export interface ToolName {
  readonly name: string;
  readonly namespace?: string;
  /** A freeform tool (`type: "custom"`, the Codex CLI's apply_patch): its calls carry raw text, `input`, not JSON arguments. */
  readonly custom?: true;
}

export interface ToolNames {
  /** The chat name of a Responses tool (and of the calls of it in the conversation). */
  toChat(tool: ToolName): string;
  /** The Responses tool a chat call names. */
  fromChat(chatName: string): ToolName;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A tool a chat upstream can be given: a function tool, or a freeform one (sent as a function of one string). */
const isCallable = (tool: Json | null | undefined): boolean => tool?.['type'] === 'function' || tool?.['type'] === 'custom';

/** Every function and freeform tool of a Responses request, namespaced ones included. */
export function functionToolsOf(tools: unknown): { namespace?: string; tool: Json }[] {
  const found: { namespace?: string; tool: Json }[] = [];
  for (const tool of Array.isArray(tools) ? (tools as Json[]) : []) {
    if (isCallable(tool)) found.push({ tool });
    else if (tool?.['type'] === 'namespace' && Array.isArray(tool['tools'])) {
      const namespace = asText(tool['name']);
      for (const inner of tool['tools'] as Json[]) if (isCallable(inner)) found.push({ namespace, tool: inner });
    }
  }
  return found;
}

const byTools = new WeakMap<object, ToolNames>();

/** The names of `tools` (a Responses request's), computed once per request. */
export function toolNamesOf(tools: unknown): ToolNames {
  const key = Array.isArray(tools) ? tools : null;
  const known = key ? byTools.get(key) : undefined;
  if (known) return known;
  const all = functionToolsOf(tools);
  const count = new Map<string, number>();
  for (const { tool } of all) count.set(asText(tool['name']), (count.get(asText(tool['name'])) ?? 0) + 1);
  const chatOf = new Map<string, string>();
  const back = new Map<string, ToolName>();
  for (const { namespace, tool } of all) {
    const name = asText(tool['name']);
    const custom = tool['type'] === 'custom' ? ({ custom: true } as const) : {};
    if (namespace === undefined) {
      if (tool['type'] === 'custom') back.set(name, { name, ...custom });
      continue;
    }
    const chat = count.get(name) === 1 ? name : `${namespace}__${name}`;
    chatOf.set(`${namespace}\u0000${name}`, chat);
    back.set(chat, { name, namespace, ...custom });
  }
  const names: ToolNames = {
    toChat: (tool) => (tool.namespace ? chatOf.get(`${tool.namespace}\u0000${tool.name}`) ?? `${tool.namespace}__${tool.name}` : tool.name),
    fromChat: (chatName) => back.get(chatName) ?? { name: chatName },
  };
  if (key) byTools.set(key, names);
  return names;
}

/**
 * VS Code tool definitions and tool mode -> OpenAI `tools` and `tool_choice`. Pure.
 */

/** LanguageModelChatToolMode values. */
export const TOOL_MODE_AUTO = 1;
export const TOOL_MODE_REQUIRED = 2;

export interface LmToolLike {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object | undefined;
}

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: object };
}

/** An object schema with no properties: what OpenAI-style APIs accept for "no arguments". */
const EMPTY_SCHEMA = { type: 'object', properties: {} } as const;

export function toOpenAiTools(tools: ReadonlyArray<LmToolLike> | undefined): OpenAiTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema && Object.keys(tool.inputSchema).length > 0 ? tool.inputSchema : { ...EMPTY_SCHEMA },
    },
  }));
}

/**
 * `tool_choice` for a request: "required" when VS Code demands a tool call and tools were given;
 * otherwise undefined (the upstream default, "auto"), which every gateway accepts.
 */
export function toolChoice(toolMode: number | undefined, tools: ReadonlyArray<LmToolLike> | undefined): 'required' | undefined {
  return toolMode === TOOL_MODE_REQUIRED && tools !== undefined && tools.length > 0 ? 'required' : undefined;
}

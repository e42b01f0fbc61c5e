/**
 * `modelGateway.modelParameters`: request fields the user adds per model (temperature, top_p, reasoning_effort, or a
 * provider's own such as enable_thinking), "*" for every model, the model's own entry over it. They fill in what a
 * request does not set itself (inline completion's short max_tokens stays short), and never the fields the extension
 * must control. Pure.
 */

export type ModelParameters = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** What a request's meaning or shape depends on: the extension's, whatever the settings say. */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set([
  'model', 'messages', 'prompt', 'suffix', 'input', 'stream', 'stream_options', 'tools', 'tool_choice', 'functions', 'function_call', 'n', 'echo', 'response_format',
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The setting as read: entries that are objects, under trimmed model names; anything else dropped. */
export function sanitizeModelParameters(value: unknown): ModelParameters {
  if (!isPlainObject(value)) return {};
  const out: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const [model, fields] of Object.entries(value)) {
    if (model.trim() !== '' && isPlainObject(fields)) out[model.trim()] = fields;
  }
  return out;
}

/** The fields to add to a request for `model`: "*" (unless `everyModel` is false) then the model's own, reserved ones left out. */
export function parametersFor(all: ModelParameters, model: string, { everyModel = true } = {}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(everyModel ? all['*'] : {}), ...all[model] };
  for (const field of Object.keys(merged)) if (RESERVED_FIELDS.has(field) || merged[field] === undefined) delete merged[field];
  return merged;
}

/**
 * A /v1/models entry -> the facts VS Code's model picker needs (LanguageModelChatInformation). Pure.
 *
 * Gateways of this family return OpenAI's bare `{ id, object, owned_by }`; some add
 * `context_length`, `max_output_tokens`, `supported_parameters` (OpenRouter style) or
 * `capabilities`. We use what is there and fall back to defaults that suit a modern chat model.
 */
import { isChatModel, type ModelEntry } from '../../contract/index.ts';

export const DEFAULT_CONTEXT_TOKENS = 128_000;
export const DEFAULT_OUTPUT_TOKENS = 8_192;

export interface LmModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly detail: string;
  readonly tooltip: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly toolCalling: boolean; readonly imageInput: boolean };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function positiveInt(...values: unknown[]): number | undefined {
  for (const value of values) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  }
  return undefined;
}

/** Whether the model can be given OpenAI `tools`. */
export function supportsToolCalling(entry: ModelEntry): boolean {
  const capabilities = record(entry.capabilities);
  if (capabilities) {
    for (const key of ['tool_calling', 'tool_call', 'tools', 'function_calling']) {
      if (typeof capabilities[key] === 'boolean') return capabilities[key];
    }
  }
  for (const key of ['tool_calling', 'supports_tools', 'supports_function_calling', 'function_calling']) {
    if (typeof entry[key] === 'boolean') return entry[key];
  }
  if (Array.isArray(entry.supported_parameters)) return entry.supported_parameters.includes('tools');
  return true;
}

/**
 * Whether the model takes images: `capabilities.image_input` (this gateway) or `vision`, LiteLLM's
 * `supports_vision`, OpenRouter's `architecture.input_modalities`. Not said: no (VS Code then lets no
 * image be attached, rather than have the upstream refuse it).
 */
export function supportsImageInput(entry: ModelEntry): boolean {
  const capabilities = record(entry.capabilities);
  for (const key of ['image_input', 'vision']) if (typeof capabilities?.[key] === 'boolean') return capabilities[key];
  if (typeof entry['supports_vision'] === 'boolean') return entry['supports_vision'];
  const modalities = record(entry['architecture'])?.['input_modalities'];
  return Array.isArray(modalities) && modalities.includes('image');
}

export function toModelInfo(entry: ModelEntry): LmModelInfo {
  const topProvider = record(entry.top_provider);
  const context = positiveInt(entry.context_length, entry.context_window, entry.max_context_length, entry.max_model_len, topProvider?.context_length);
  const output =
    positiveInt(entry.max_output_tokens, entry.max_completion_tokens, topProvider?.max_completion_tokens) ??
    Math.min(DEFAULT_OUTPUT_TOKENS, Math.floor((context ?? DEFAULT_CONTEXT_TOKENS) / 4));
  const explicitInput = positiveInt(entry.max_input_tokens);
  const maxInputTokens = explicitInput ?? Math.max(1, (context ?? DEFAULT_CONTEXT_TOKENS) - output);
  const name = typeof entry.name === 'string' && entry.name.trim() !== '' ? entry.name : entry.id;
  const owner = entry.owned_by ?? '';
  return {
    id: entry.id,
    name,
    family: entry.id,
    version: typeof entry.version === 'string' && entry.version !== '' ? entry.version : '1',
    detail: 'Model Gateway',
    tooltip: owner ? `${entry.id} (${owner}) via Model Gateway` : `${entry.id} via Model Gateway`,
    maxInputTokens,
    maxOutputTokens: output,
    capabilities: { toolCalling: supportsToolCalling(entry), imageInput: supportsImageInput(entry) },
  };
}

/** The chat models of a /v1/models list, as picker entries, sorted by id, without duplicates. */
export function toModelInfos(entries: ReadonlyArray<ModelEntry>): LmModelInfo[] {
  const seen = new Set<string>();
  const infos: LmModelInfo[] = [];
  for (const entry of entries) {
    if (seen.has(entry.id) || !isChatModel(entry)) continue;
    seen.add(entry.id);
    infos.push(toModelInfo(entry));
  }
  return infos.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * What the picker offers when /v1/models failed (a refused key, a 403, the network): the list from
 * the last success if there is one, else the configured model (`modelGateway.model`) marked as not
 * verified, so that a chat message still reaches the provider or @gateway, which then explain the
 * failure; with no model configured, nothing. `why` is the short reason shown in the tooltip.
 */
export function fallbackModelInfos<Cached = LmModelInfo>(
  configuredModel: string,
  cached: ReadonlyArray<Cached> | undefined,
  why: string,
  texts: { detail: string; tooltip: (model: string, why: string) => string },
): Array<Cached | LmModelInfo> {
  if (cached && cached.length > 0) return [...cached];
  const id = configuredModel.trim();
  if (id === '') return [];
  return [{ ...toModelInfo({ id }), detail: texts.detail, tooltip: texts.tooltip(id, why) }];
}


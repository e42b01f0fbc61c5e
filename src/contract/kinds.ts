/**
 * Every kind of model the gateway serves (contract 1.4), the endpoint each is for, and the
 * request bodies of the non-chat endpoints as zod schemas (loose: fields we do not use pass through).
 */
import { z } from 'zod';

import { MODEL_KINDS, type ModelKind } from './values.ts';
import { hasControlCharacters, MAX_MODEL_NAME_LENGTH, MAX_PROMPTS, MAX_TOKEN_ARRAY } from './values.ts';
import { listOf, tokenIds } from './lists.ts';

export { MODEL_KINDS, type ModelKind };

export function isModelKind(value: unknown): value is ModelKind {
  return typeof value === 'string' && (MODEL_KINDS as readonly string[]).includes(value);
}

/** The endpoint (under the /v1 base) that serves each kind. */
export const ENDPOINT_OF_KIND: Readonly<Record<ModelKind, string>> = {
  chat: '/v1/chat/completions',
  completion: '/v1/completions',
  embedding: '/v1/embeddings',
  image: '/v1/images/generations',
};

/** The longest model name accepted: real names are far shorter, and a name is echoed in errors and stored in logs. */
export { MAX_MODEL_NAME_LENGTH };
export { compareNames, cutWithMarker, MAX_ERROR_DETAIL_CHARS, MAX_QUOTED_CHARS, quoteClientValue, withArticle } from './values.ts';

/**
 * A model name as every request body carries it. No served name holds a control character, and one in a
 * request would be logged: refused here, with the reason.
 */
export const ModelName = z.string().min(1).max(MAX_MODEL_NAME_LENGTH).refine((name) => !hasControlCharacters(name), 'must not contain control characters');

const tokenArray = tokenIds(MAX_TOKEN_ARRAY, 1);

/** POST /v1/completions: a prompt (text, texts, or token arrays), optional `suffix` for fill-in-the-middle. */
export const CompletionRequest = z.looseObject({
  model: ModelName,
  prompt: z.union([z.string(), listOf(z.string(), MAX_PROMPTS, 1), tokenArray, listOf(tokenArray, MAX_PROMPTS, 1)]),
  suffix: z.string().nullish(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  best_of: z.number().int().min(1).max(128).nullish(),
  echo: z.boolean().nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
});
export type CompletionRequest = z.infer<typeof CompletionRequest>;

/** A whole (non-streamed) answer of POST /v1/completions, OpenAI's `text_completion`: the text of each choice. */
export const TextCompletion = z.looseObject({
  id: z.string().optional(),
  object: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(z.looseObject({ index: z.number().int().optional(), text: z.string().nullish(), finish_reason: z.string().nullish() })),
});
export type TextCompletion = z.infer<typeof TextCompletion>;

/** POST /v1/embeddings: one input or many, as text or token arrays. */
export const EmbeddingRequest = z.looseObject({
  model: ModelName,
  input: z.union([z.string(), listOf(z.string(), MAX_PROMPTS, 1), tokenArray, listOf(tokenArray, MAX_PROMPTS, 1)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().min(1).max(8192).optional(),
});
export type EmbeddingRequest = z.infer<typeof EmbeddingRequest>;

/** The answer to POST /v1/embeddings: one vector per input, as numbers or (asked with encoding_format base64) base64 of float32. */
export const EmbeddingList = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int().nonnegative(), embedding: z.union([z.array(z.number()), z.string()]) })),
  model: z.string().optional(),
  usage: z.looseObject({ prompt_tokens: z.number().int().nonnegative().optional() }).nullish(),
});
export type EmbeddingList = z.infer<typeof EmbeddingList>;

/** POST /v1/images/generations: `n` images of `size` for a prompt, as URLs or base64 PNG. */
export const ImageRequest = z.looseObject({
  model: ModelName,
  prompt: z.string().min(1).max(32_000),
  n: z.number().int().min(1).max(10).nullish(),
  size: z.string().regex(/^(auto|\d{1,4}x\d{1,4})$/, 'expected "WIDTHxHEIGHT" (for example "1024x1024") or "auto"').nullish(),
  quality: z.string().max(32).nullish(),
  response_format: z.enum(['url', 'b64_json']).nullish(),
});
export type ImageRequest = z.infer<typeof ImageRequest>;

/** The answer to POST /v1/images/generations: each image as base64 (`b64_json`) or a URL (http(s) or `data:`). */
export const ImageList = z.looseObject({
  created: z.number().optional(),
  data: z.array(z.looseObject({ b64_json: z.string().nullish(), url: z.string().nullish(), revised_prompt: z.string().nullish() })),
});
export type ImageList = z.infer<typeof ImageList>;

/**
 * The `echo` channel's embeddings (POST /v1/embeddings): for each input, a deterministic unit vector of
 * `dimensions` numbers (default ECHO_EMBEDDING_DIMENSIONS), as floats or as base64 of little-endian float32,
 * like OpenAI's. Lexical, so that it can stand in for a real model offline: texts that share words (and
 * the parts of camelCase and snake_case names) point the same way, so a codebase search through it finds
 * the code that names what was asked. Usage: the inputs' word-sized tokens (a token array counts its length).
 */
import { createHash } from 'node:crypto';
import type { EmbeddingRequest } from '../../../contract/index.ts';
import { elapsedMs, NO_USAGE, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { writeEchoAnswer } from './answer.ts';
import { tokenize } from './model.ts';

export const ECHO_EMBEDDING_DIMENSIONS = 256;
/** Numbers in one answer at most (inputs × dimensions): bounds the answer to a few tens of MB. */
const MAX_NUMBERS = 4_194_304;

/** The words of `text` for its vector: lower-case, with identifiers also split into their parts. */
export function echoWords(text: string): string[] {
  const words: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const lower = word.toLowerCase();
    words.push(lower);
    const parts = word.split(/_+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u).filter(Boolean);
    if (parts.length > 1) for (const part of parts) words.push(part.toLowerCase());
  }
  return words;
}

/** `dimensions` pseudo-random numbers from SHA-256 of `seed`, in [-1, 1). */
function hashed(seed: string, dimensions: number, into: Float32Array, weight: number): void {
  for (let block = 0; block * 8 < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}\0${seed}`).digest();
    for (let i = 0; i < 8 && block * 8 + i < dimensions; i++) into[block * 8 + i]! += (weight * digest.readInt32LE(i * 4)) / 2 ** 31;
  }
}

/**
 * The echo vector of `text`: each distinct word adds a random direction of its own (weighted 1 + ln of its
 * count), and the whole text a small one (so that different texts never share a vector); unit length. Pure.
 */
export function echoVector(text: string, dimensions: number): Float32Array {
  const values = new Float32Array(dimensions);
  const counts = new Map<string, number>();
  for (const word of echoWords(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  for (const [word, count] of counts) hashed(`w\0${word}`, dimensions, values, 1 + Math.log(count));
  hashed(text, dimensions, values, counts.size === 0 ? 1 : 0.2);
  let norm = 0;
  for (const v of values) norm += v * v;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < dimensions; i++) values[i] = values[i]! * scale;
  return values;
}

function inputsOf(input: EmbeddingRequest['input']): Array<{ text: string; tokens: number }> {
  if (typeof input === 'string') return [{ text: input, tokens: tokenize(input).length }];
  if (input.every((i) => typeof i === 'number')) return [{ text: input.join(' '), tokens: input.length }];
  return input.map((i) => (typeof i === 'string' ? { text: i, tokens: tokenize(i).length } : { text: (i as number[]).join(' '), tokens: (i as number[]).length }));
}

export function echoEmbedding(ctx: AttemptContext, body: EmbeddingRequest): AttemptResult {
  const { request, channel } = ctx;
  const inputs = inputsOf(body.input);
  const dimensions = body.dimensions ?? ECHO_EMBEDDING_DIMENSIONS;
  if (inputs.length * dimensions > MAX_NUMBERS) {
    const message = `${inputs.length} inputs × ${dimensions} dimensions is more than this model answers at once (${MAX_NUMBERS} numbers); send fewer inputs or dimensions`;
    return { kind: 'final', outcome: { kind: 'failed', code: 'invalid_request', detail: message, upstreamRejection: { status: 400, message }, channel: channel.name, firstByteMs: null, usage: NO_USAGE } };
  }
  const data = inputs.map(({ text }, index) => {
    const vector = echoVector(text, dimensions);
    const embedding = body.encoding_format === 'base64' ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') : Array.from(vector);
    return { object: 'embedding', index, embedding };
  });
  const promptTokens = inputs.reduce((n, i) => n + i.tokens, 0);
  const answer = { object: 'list', data, model: request.model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
  const usage = { promptTokens, completionTokens: 0, estimated: false };
  writeEchoAnswer(request, usage, JSON.stringify(answer));
  return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt), usage } };
}

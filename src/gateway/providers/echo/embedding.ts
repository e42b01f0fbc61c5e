/**
 * The `echo` channel's embeddings (POST /v1/embeddings): for each input, a deterministic unit vector
 * derived from SHA-256 of its text (the same text always gives the same vector, different texts
 * different ones), of `dimensions` numbers (default ECHO_EMBEDDING_DIMENSIONS), as floats or as
 * base64 of little-endian float32, like OpenAI's. Usage: the inputs' word-sized tokens (a token
 * array counts its length).
 */
import { createHash } from 'node:crypto';
import type { EmbeddingRequest } from '../../../contract/index.ts';
import { elapsedMs, NO_USAGE, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { writeJson } from '../../relay/respond.ts';
import { tokenize } from './model.ts';

export const ECHO_EMBEDDING_DIMENSIONS = 256;
/** Numbers in one answer at most (inputs × dimensions): bounds the answer to a few tens of MB. */
const MAX_NUMBERS = 4_194_304;

/** The echo vector of `text`: `dimensions` float32 values, unit length. Pure. */
export function echoVector(text: string, dimensions: number): Float32Array {
  const values = new Float32Array(dimensions);
  let norm = 0;
  for (let block = 0; block * 8 < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}\0${text}`).digest();
    for (let i = 0; i < 8 && block * 8 + i < dimensions; i++) {
      const v = digest.readInt32LE(i * 4) / 2 ** 31;
      values[block * 8 + i] = v;
      norm += v * v;
    }
  }
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
  writeJson(request, 200, JSON.stringify(answer));
  return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt), usage: { promptTokens, completionTokens: 0, estimated: false } } };
}

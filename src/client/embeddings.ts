/**
 * The answer to POST /v1/embeddings as vectors in input order: numbers or base64 of little-endian float32
 * (what encoding_format base64 asks; gateways that ignore it send numbers, and both are read), checked to hold
 * one vector per input, all of one length.
 */
import { COST_HEADER, headerValue, requestIdFromHeaders } from '../contract/index.ts';
import type { EmbeddingList, HeaderBag } from '../contract/index.ts';
import { CLIENT_ERROR_CODES, InvalidResponseError } from './errors.ts';

export interface Embeddings {
  /** One per input, in the inputs' order. */
  readonly vectors: Float32Array[];
  /** The input tokens the gateway counted, when it said. */
  readonly promptTokens: number | null;
  /** What the gateway charged in USD (its X-Gateway-Cost header), when it said. */
  readonly costUsd: number | null;
}

function vectorOf(embedding: readonly number[] | string): Float32Array {
  if (typeof embedding !== 'string') return Float32Array.from(embedding);
  const bytes = Buffer.from(embedding, 'base64');
  // Copied into a buffer of its own: a Float32Array needs 4-byte alignment, which Buffer's pool does not promise.
  const vector = new Float32Array(bytes.length >> 2);
  new Uint8Array(vector.buffer).set(bytes.subarray(0, vector.length * 4));
  return vector;
}

/** The vectors of `answer` for `inputs` inputs; a wrong count, index or length is an unexpected answer, not a silent miss. */
export function embeddingsOf(answer: EmbeddingList, inputs: number, status: number, headers: HeaderBag): Embeddings {
  const vectors: Float32Array[] = new Array(inputs);
  const wrong = (detail: string): never => {
    throw new InvalidResponseError({ status, requestId: requestIdFromHeaders(headers), code: CLIENT_ERROR_CODES.unexpected_shape, detail: `The embeddings answer ${detail}.` });
  };
  if (answer.data.length !== inputs) wrong(`has ${answer.data.length} vectors for ${inputs} inputs`);
  for (const item of answer.data) {
    if (item.index >= inputs || vectors[item.index] !== undefined) wrong(`repeats or overruns index ${item.index}`);
    vectors[item.index] = vectorOf(item.embedding);
  }
  const length = vectors[0]?.length ?? 0;
  if (length === 0 || vectors.some((v) => v.length !== length)) wrong('holds vectors of different or no length');
  const cost = Number(headerValue(headers, COST_HEADER) ?? Number.NaN);
  return { vectors, promptTokens: answer.usage?.prompt_tokens ?? null, costUsd: Number.isFinite(cost) ? cost : null };
}

/**
 * Embeddings in the encoding the client asked for (`encoding_format`, float by default). The openai SDKs ask for
 * base64 whenever their caller did not choose, and decode what comes back as base64 without looking: from an
 * upstream that ignores `encoding_format` and answers floats (some self-hosted servers do), the caller got a
 * vector of garbage and no error. So where the upstream's encoding differs from the one asked, the vectors are
 * re-encoded (base64 is the float32 bytes, little-endian, as OpenAI sends them); an answer already as asked
 * passes unchanged.
 */
import type { EmbeddingRequest } from '../../../contract/index.ts';

type Json = Record<string, unknown>;

/** A vector as base64 float32, or null when it is not a list of numbers. */
function toBase64(vector: unknown): string | null {
  if (!Array.isArray(vector) || !vector.every((v) => typeof v === 'number')) return null;
  const floats = Float32Array.from(vector as number[]);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

/** A base64 float32 vector as numbers, or null when it is not one. */
function toFloats(text: unknown): number[] | null {
  if (typeof text !== 'string') return null;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) return null;
  const floats = new Float32Array(bytes.length / 4);
  for (let i = 0; i < floats.length; i++) floats[i] = bytes.readFloatLE(i * 4);
  return Array.from(floats);
}

/** The answer's `data` with each vector in the asked encoding; null when every one already was (or none can be). */
export function reencodedEmbeddings(answer: Json, body: Pick<EmbeddingRequest, 'encoding_format'>): Json[] | null {
  const data = answer['data'];
  if (!Array.isArray(data)) return null;
  const convert = body.encoding_format === 'base64' ? toBase64 : toFloats;
  let changed = false;
  const out = data.map((item: unknown) => {
    if (item === null || typeof item !== 'object') return item as Json;
    const embedding = convert((item as Json)['embedding']);
    if (embedding === null) return item as Json;
    changed = true;
    return { ...(item as Json), embedding };
  });
  return changed ? out : null;
}

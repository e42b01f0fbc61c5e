/**
 * A request body sent compressed (Content-Encoding: gzip, deflate, br or zstd, as some clients and proxies send
 * large prompts): decompressed on the thread pool, never past the body limit (a small bomb of zeros is refused as
 * too large, not held). A coding the gateway does not know is 415; a body that is not what its coding says, 400.
 */
import * as zlib from 'node:zlib';
import type { InputType, ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';
import { HttpError } from './errors.ts';

type Decode = (body: InputType, options: ZlibOptions) => Promise<Buffer>;

/** zstd where this Node has it (24 does; the editor's older Node, running the bundled gateway, may not). */
const zstd = (zlib as { zstdDecompress?: typeof zlib.gunzip }).zstdDecompress;

const DECODERS: Readonly<Record<string, Decode>> = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip),
  // HTTP's deflate is zlib's format; some clients send the raw stream, which is read too.
  deflate: async (body, options) => promisify(zlib.inflate)(body, options).catch(() => promisify(zlib.inflateRaw)(body, options)),
  br: promisify(zlib.brotliDecompress) as Decode,
  ...(zstd ? { zstd: promisify(zstd) as Decode } : {}),
};

/** The body as its sender wrote it, before the coding its Content-Encoding names. */
export async function decodedBody(body: Buffer, contentEncoding: string, maxBytes: number): Promise<Buffer> {
  const coding = contentEncoding.trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body;
  const decode = DECODERS[coding];
  if (!decode) throw new HttpError('json_required', `The body's Content-Encoding "${coding.slice(0, 32)}" is not one this gateway reads (gzip, deflate, br, zstd): send it uncompressed or in one of those.`);
  try {
    return await decode(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new HttpError('request_too_large', `Decompressed, the body is larger than the limit of ${maxBytes} bytes.`);
    throw new HttpError('invalid_request', `The body is not valid ${coding} data, as its Content-Encoding says.`);
  }
}

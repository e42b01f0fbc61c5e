/**
 * The answer to POST /v1/images/generations as image bytes. Gateways answer each image as base64 (`b64_json`), a
 * `data:` URL, or an http(s) URL to fetch (DALL·E's default, expiring within the hour); the bytes must be an image
 * this client recognises (PNG, JPEG, WebP, GIF), and no more than MAX_IMAGE_BYTES.
 */
import { COST_HEADER, headerValue, requestIdFromHeaders } from '../contract/index.ts';
import type { HeaderBag, ImageList } from '../contract/index.ts';
import type { Dispatcher } from 'undici';
import { CLIENT_ERROR_CODES, GatewayError, InvalidResponseError } from './errors.ts';
import { readBytes, send } from './transport.ts';

/** The largest image accepted (base64 or fetched): a 4096x4096 PNG is ~30 MB at worst. */
export const MAX_IMAGE_BYTES = 48 * 1024 * 1024;

export interface ImageFormat {
  readonly mime: string;
  /** The file name extension, without the dot. */
  readonly extension: string;
}

export interface GeneratedImage extends ImageFormat {
  readonly bytes: Buffer;
  /** The prompt as the model rewrote it (DALL·E 3 does), when it said. */
  readonly revisedPrompt: string | null;
}

export interface Images {
  readonly images: GeneratedImage[];
  /** What the gateway charged in USD (its X-Gateway-Cost header), when it said. */
  readonly costUsd: number | null;
}

/** Where one image's bytes are: here already, or at a URL to fetch. */
export type ImageSource = { readonly kind: 'bytes'; readonly bytes: Buffer } | { readonly kind: 'fetch'; readonly url: string };

/** The format of `bytes` by its signature, or null when it is none of the formats an editor shows. */
export function imageFormat(bytes: Uint8Array): ImageFormat | null {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { mime: 'image/png', extension: 'png' };
  if (starts(0xff, 0xd8, 0xff)) return { mime: 'image/jpeg', extension: 'jpg' };
  if (starts(0x47, 0x49, 0x46, 0x38)) return { mime: 'image/gif', extension: 'gif' };
  if (starts(0x52, 0x49, 0x46, 0x46) && Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP') return { mime: 'image/webp', extension: 'webp' };
  return null;
}

function unexpected(status: number, headers: HeaderBag, detail: string): InvalidResponseError {
  return new InvalidResponseError({ status, requestId: requestIdFromHeaders(headers), code: CLIENT_ERROR_CODES.unexpected_shape, detail });
}

/** Base64 decoded, refused when it is not base64 or decodes to more than MAX_IMAGE_BYTES. */
function fromBase64(text: string, fail: (detail: string) => never): Buffer {
  const body = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body)) fail('holds an image that is not base64');
  if (Math.floor((body.length * 3) / 4) > MAX_IMAGE_BYTES) fail(`holds an image over ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  return Buffer.from(body, 'base64');
}

/** Where each image of `answer` is; an item with neither base64 nor a usable URL is an unexpected answer. */
export function imageSources(answer: ImageList, status: number, headers: HeaderBag): ImageSource[] {
  const fail = (detail: string): never => {
    throw unexpected(status, headers, `The images answer ${detail}.`);
  };
  if (answer.data.length === 0) fail('holds no image');
  return answer.data.map((item): ImageSource => {
    if (item.b64_json) return { kind: 'bytes', bytes: fromBase64(item.b64_json, fail) };
    const url = item.url ?? '';
    const data = /^data:[^,]*;base64,/i.exec(url);
    if (data) return { kind: 'bytes', bytes: fromBase64(url.slice(data[0].length), fail) };
    if (/^https?:\/\//i.test(url)) return { kind: 'fetch', url };
    return fail('holds an image with neither base64 nor an http(s) URL');
  });
}

/**
 * An image answered as an http(s) URL, fetched through the client's dispatcher (its proxy) but without the API key:
 * the URL is the upstream's, not the gateway's. Refused past MAX_IMAGE_BYTES or on any status but 200.
 */
export async function fetchImage(dispatcher: Dispatcher, userAgent: string, url: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<Buffer> {
  const exchange = await send(dispatcher, { method: 'GET', url, headers: { accept: 'image/*', 'user-agent': userAgent }, timeoutMs, signal });
  try {
    if (exchange.status !== 200) {
      exchange.abort();
      throw new InvalidResponseError({ status: exchange.status, code: CLIENT_ERROR_CODES.unexpected_shape, detail: `The image at ${new URL(url).origin} could not be fetched (HTTP ${exchange.status}).` });
    }
    return await readBytes(exchange, signal, url, MAX_IMAGE_BYTES);
  } finally {
    exchange.release();
  }
}

/** The images of `answer` once every URL is fetched, each checked to be an image. */
export function imagesOf(answer: ImageList, bytes: readonly Buffer[], status: number, headers: HeaderBag): Images {
  const images = bytes.map((b, i): GeneratedImage => {
    const format = imageFormat(b);
    if (!format) throw unexpected(status, headers, `Image ${i + 1} of the answer is not a PNG, JPEG, WebP or GIF image.`);
    return { ...format, bytes: b, revisedPrompt: answer.data[i]?.revised_prompt ?? null };
  });
  const cost = Number(headerValue(headers, COST_HEADER) ?? Number.NaN);
  return { images, costUsd: Number.isFinite(cost) ? cost : null };
}

/**
 * True when the gateway refused the request for its `response_format` field: the GPT image models answer
 * "Unknown parameter: 'response_format'" (they always send base64), so the request is sent again without it.
 */
export function refusesResponseFormat(error: unknown): boolean {
  return error instanceof GatewayError && error.status === 400 && /response_format/.test(`${error.gatewayMessage ?? ''} ${error.message}`);
}

/**
 * The `echo` channel's images (POST /v1/images/generations): `n` PNGs of `size` (at most
 * ECHO_MAX_IMAGE_SIDE a side; `auto` is 256x256), each one colour taken from SHA-256 of the prompt
 * and the image's index, as base64 (`b64_json`) or as a `data:` URL (`url`, the default).
 */
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { ImageRequest } from '../../../contract/index.ts';
import { elapsedMs, NO_USAGE, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { writeEchoAnswer } from './answer.ts';

export const ECHO_MAX_IMAGE_SIDE = 1024;
const AUTO_SIDE = 256;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG, `width`×`height`, RGB, every pixel `rgb`. Pure. */
export function solidPng(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, adaptive filter, no interlace
  const row = Buffer.alloc(1 + width * 3); // filter byte 0, then the pixels
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

export function echoImage(ctx: AttemptContext, body: ImageRequest): AttemptResult {
  const { request, channel } = ctx;
  const [width, height] = !body.size || body.size === 'auto' ? [AUTO_SIDE, AUTO_SIDE] : body.size.split('x').map(Number) as [number, number];
  if (width < 1 || height < 1 || width > ECHO_MAX_IMAGE_SIDE || height > ECHO_MAX_IMAGE_SIDE) {
    const message = `size ${body.size}: this model draws from 1x1 to ${ECHO_MAX_IMAGE_SIDE}x${ECHO_MAX_IMAGE_SIDE}`;
    return { kind: 'final', outcome: { kind: 'failed', code: 'invalid_request', detail: message, upstreamRejection: { status: 400, message }, channel: channel.name, firstByteMs: null, usage: NO_USAGE } };
  }
  const n = body.n ?? 1;
  const data = Array.from({ length: n }, (_, index) => {
    const digest = createHash('sha256').update(`${index}\0${body.prompt}`).digest();
    const b64 = solidPng(width, height, [digest[0]!, digest[1]!, digest[2]!]).toString('base64');
    return body.response_format === 'b64_json' ? { b64_json: b64 } : { url: `data:image/png;base64,${b64}` };
  });
  const usage = { ...NO_USAGE, images: n };
  writeEchoAnswer(request, usage, JSON.stringify({ created: Math.floor(Date.now() / 1000), data }));
  return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt), usage } };
}

/**
 * Images made small as `data:` URLs: scaled down (area average, over white) and encoded as JPEG. The chat's preview of
 * a generated image is one: the chat cannot show an image file from the extension host (in a remote window its `file:`
 * link is not rewritten, measured in code-server) and cuts Markdown past 100,000 characters, so it fits
 * MAX_PREVIEW_CHARS. An image sent to a model (alt text) is another, at a side models read well. PNG and JPEG are read
 * (pngjs, jpeg-js); other formats are not.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** The longest side of a preview. */
export const PREVIEW_SIDE = 384;
/** A preview's `data:` URL at most: the chat cuts a Markdown part at 100,000 characters. */
export const MAX_PREVIEW_CHARS = 90_000;
/** Images of more pixels are not decoded for a preview (a hostile header could ask for gigabytes). */
const MAX_PIXELS = 6000 * 6000;

interface Rgba {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** PNG's width and height from its header, without decoding. */
function pngSize(bytes: Buffer): [number, number] | null {
  return bytes.length >= 24 && bytes.toString('latin1', 12, 16) === 'IHDR' ? [bytes.readUInt32BE(16), bytes.readUInt32BE(20)] : null;
}

function decode(bytes: Buffer, mime: string): Rgba | null {
  if (mime === 'image/png') {
    const size = pngSize(bytes);
    if (!size || size[0] * size[1] > MAX_PIXELS) return null;
    return PNG.sync.read(bytes);
  }
  if (mime === 'image/jpeg') return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1e6, maxMemoryUsageInMB: 512 });
  return null;
}

/** `image` scaled so its longest side is at most `side`: each target pixel the average of the source pixels it covers, composited over white. */
export function scaleDown(image: Rgba, side: number): Rgba {
  const scale = Math.min(1, side / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const sums = new Float64Array(width * height * 3);
  const counts = new Uint32Array(width * height);
  for (let y = 0; y < image.height; y++) {
    const row = Math.min(height - 1, Math.floor((y * height) / image.height)) * width;
    for (let x = 0; x < image.width; x++) {
      const target = row + Math.min(width - 1, Math.floor((x * width) / image.width));
      const source = (y * image.width + x) * 4;
      const alpha = image.data[source + 3]! / 255;
      for (let c = 0; c < 3; c++) sums[target * 3 + c]! += image.data[source + c]! * alpha + 255 * (1 - alpha);
      counts[target]!++;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) data[i * 4 + c] = Math.round(sums[i * 3 + c]! / counts[i]!);
    data[i * 4 + 3] = 255;
  }
  return { width, height, data };
}

/** Sides and JPEG qualities tried in turn until the preview fits MAX_PREVIEW_CHARS. */
export const PREVIEW_TRIES = [[PREVIEW_SIDE, 80], [PREVIEW_SIDE * 0.75, 60], [PREVIEW_SIDE / 2, 50]] as const;

/**
 * A PNG or JPEG scaled down and encoded as a `data:image/jpeg` URL: the first of `tries` (longest side, quality) that
 * fits `maxChars`; null when the image cannot be read or none fits.
 */
export function jpegDataUrl(bytes: Buffer, mime: string, tries: ReadonlyArray<readonly [number, number]>, maxChars: number): string | null {
  let image: Rgba | null;
  try {
    image = decode(bytes, mime);
  } catch {
    return null;
  }
  if (!image) return null;
  for (const [side, quality] of tries) {
    const small = scaleDown(image, side);
    const url = `data:image/jpeg;base64,${jpeg.encode({ ...small, data: Buffer.from(small.data.buffer, small.data.byteOffset, small.data.byteLength) }, quality).data.toString('base64')}`;
    if (url.length <= maxChars) return url;
  }
  return null;
}

/** The chat's preview of an image as a `data:image/jpeg` URL, or null when it cannot be read or will not fit. */
export function previewDataUrl(bytes: Buffer, mime: string): string | null {
  return jpegDataUrl(bytes, mime, PREVIEW_TRIES, MAX_PREVIEW_CHARS);
}

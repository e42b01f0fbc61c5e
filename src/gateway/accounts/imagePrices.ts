/**
 * Image prices by size and quality, as providers price them (dall-e-3: a 1024x1792 image costs more,
 * an "hd" one more again). A model has one default price per image and optional prices for a size,
 * a quality, or both, keyed "1024x1792", "hd" or "1024x1792,hd". The most specific one that matches
 * the request wins; the price is known before the request, so the reservation is exact.
 */
import type { ModelRecord } from '../store/types.ts';

/** Micro-USD per image, by "SIZE", "QUALITY" or "SIZE,QUALITY". */
export type ImagePrices = Readonly<Record<string, number>>;

const SIZE = /^\d{1,4}x\d{1,4}$/;
const QUALITY = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * The price of one image of `size` and `quality` (either may be absent: the request leaves it to the upstream), read
 * in any case as the keys are kept: an upstream that takes "HD" draws an hd image, which costs the hd price.
 */
export function pricePerImage(model: ModelRecord, givenSize: string | null | undefined, givenQuality: string | null | undefined): number {
  const prices = model.imagePrices ?? {};
  const size = givenSize?.trim().toLowerCase();
  const quality = givenQuality?.trim().toLowerCase();
  const candidates = [size && quality ? `${size},${quality}` : null, size, quality];
  for (const key of candidates) {
    if (key && Object.hasOwn(prices, key)) return prices[key]!;
  }
  return model.imagePrice ?? 0;
}

/**
 * "1024x1792", "hd" or "1024x1792,hd" normalized (lower case, size first), or an Error saying what
 * is wrong. A size is WIDTHxHEIGHT; anything else is a quality ("standard", "hd", "low", "high"...).
 */
export function imagePriceKey(text: string): string | Error {
  const parts = text.toLowerCase().split(',').map((p) => p.trim());
  const sizes = parts.filter((p) => SIZE.test(p));
  const qualities = parts.filter((p) => !SIZE.test(p));
  if (parts.length > 2 || sizes.length > 1 || qualities.length > 1 || qualities.some((q) => !QUALITY.test(q))) {
    return new Error(`"${text.slice(0, 64)}" is not SIZE, QUALITY or SIZE,QUALITY (for example 1024x1792, hd or 1024x1792,hd)`);
  }
  return [...sizes, ...qualities].join(',');
}

/** "$0.08 for 1024x1792, $0.12 for 1024x1792,hd" (empty when the model has no such prices). */
export function describeImagePrices(prices: ImagePrices | null | undefined, format: (micro: number) => string): string {
  return Object.entries(prices ?? {}).map(([key, price]) => `${format(price)} for ${key}`).join(', ');
}

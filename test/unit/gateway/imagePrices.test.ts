import assert from 'node:assert/strict';
import { describeImagePrices, imagePriceKey, pricePerImage } from '../../../src/gateway/accounts/imagePrices.ts';
import { formatMicroUsd } from '../../../src/contract/index.ts';
import type { ModelRecord } from '../../../src/gateway/store/types.ts';

// dall-e-3's published prices: $0.04 standard 1024x1024, $0.08 for the tall size or hd, $0.12 for both.
const dallE3: ModelRecord = {
  name: 'dall-e-3', kind: 'image', inputPrice: 0, outputPrice: 0, imagePrice: 40_000, contextLength: null, toolCalling: null,
  imagePrices: { '1024x1792': 80_000, hd: 80_000, '1024x1792,hd': 120_000 },
};

describe('image prices by size and quality', () => {
  it('the most specific price that matches wins: size and quality, then size, then quality, then the default', () => {
    assert.equal(pricePerImage(dallE3, '1024x1792', 'hd'), 120_000);
    assert.equal(pricePerImage(dallE3, '1024x1792', 'standard'), 80_000);
    assert.equal(pricePerImage(dallE3, '1024x1024', 'hd'), 80_000);
    assert.equal(pricePerImage(dallE3, '1024x1024', 'standard'), 40_000);
    assert.equal(pricePerImage(dallE3, null, null), 40_000);
    assert.equal(pricePerImage(dallE3, undefined, 'hd'), 80_000);
    assert.equal(pricePerImage({ ...dallE3, imagePrices: null }, '1024x1792', 'hd'), 40_000);
  });

  it('a request cannot reach an inherited property as a price', () => {
    assert.equal(pricePerImage(dallE3, 'constructor', '__proto__'), 40_000);
  });

  it('keys are normalized (lower case, size first) and anything else is refused', () => {
    assert.equal(imagePriceKey('HD,1024x1792'), '1024x1792,hd');
    assert.equal(imagePriceKey('1536x1024'), '1536x1024');
    assert.equal(imagePriceKey('medium'), 'medium');
    for (const bad of ['1024x1024,512x512', 'hd,low', 'a,b,c', '', 'h d', '1024x1792,']) {
      assert.ok(imagePriceKey(bad) instanceof Error, `"${bad}" is refused`);
    }
  });

  it('describes the variants for the CLI and the console', () => {
    assert.equal(describeImagePrices(dallE3.imagePrices, formatMicroUsd), '$0.08 for 1024x1792, $0.08 for hd, $0.12 for 1024x1792,hd');
    assert.equal(describeImagePrices(null, formatMicroUsd), '');
  });
});

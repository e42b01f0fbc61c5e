import assert from 'node:assert/strict';
import { translationFor } from '../../../src/gateway/relay/formats/translation.ts';
import type { RelayRequest } from '../../../src/gateway/relay/types.ts';

describe('an image answer\'s usage', () => {
  it('counts the items that hold an image (a url or b64_json), not whatever the list holds', () => {
    const image = translationFor('image', 'image')!;
    const request = {} as RelayRequest;
    assert.equal(image.answerUsage({ data: [{ b64_json: 'iVBOR' }, { url: 'https://x/1.png' }] }, request)?.images, 2);
    assert.equal(image.answerUsage({ data: [null, 5, { url: '' }, { b64_json: 'iVBOR' }] }, request)?.images, 1, '[null, 5] is no two images');
    assert.equal(image.answerUsage({ data: [] }, request)?.images, 0);
  });
});

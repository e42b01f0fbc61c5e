import assert from 'node:assert/strict';
import { isChatModel } from '../../../src/contract/index.ts';

describe('isChatModel', () => {
  it('trusts the kind a gateway states, over the name', () => {
    assert.equal(isChatModel({ id: 'house-embed-chat', kind: 'chat' }), true);
    assert.equal(isChatModel({ id: 'gpt-4o', kind: 'embedding' }), false);
    assert.equal(isChatModel({ id: 'echo-image', kind: 'image' }), false);
    assert.equal(isChatModel({ id: 'echo-completion', kind: 'completion' }), false);
  });

  it('judges by the name when no kind is sent (other gateways)', () => {
    assert.equal(isChatModel({ id: 'gpt-4o-mini' }), true);
    assert.equal(isChatModel({ id: 'text-embedding-3-small' }), false);
    assert.equal(isChatModel({ id: 'dall-e-3' }), false);
    assert.equal(isChatModel({ id: 'whisper-1' }), false);
  });
});

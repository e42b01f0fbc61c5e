import assert from 'node:assert/strict';
import { compareNames, isChatModel } from '../../../src/contract/index.ts';

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

describe('compareNames (the order models and names are listed in)', () => {
  it('ignores case first, then orders by code unit, shorter prefixes first', () => {
    const names = ['gpt-4o', 'Claude-3', 'echo-embed', 'echo', 'GPT-4o', 'deepseek-chat', 'claude-3', 'a_b', 'a-b', 'Zeta', 'alpha'];
    assert.deepEqual([...names].sort(compareNames), ['a-b', 'a_b', 'alpha', 'Claude-3', 'claude-3', 'deepseek-chat', 'echo', 'echo-embed', 'GPT-4o', 'gpt-4o', 'Zeta']);
    assert.equal(compareNames('same', 'same'), 0);
  });
});

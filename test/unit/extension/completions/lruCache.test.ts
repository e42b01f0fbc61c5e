import assert from 'node:assert/strict';
import { LruCache, contextKey } from '../../../../src/extension/completions/lruCache.ts';

describe('completion cache', () => {
  it('evicts the least recently used entry, where a read counts as a use', () => {
    const cache = new LruCache<string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    assert.equal(cache.get('a'), 'A');
    cache.set('c', 'C');
    assert.equal(cache.get('b'), undefined, 'b was the oldest');
    assert.equal(cache.get('a'), 'A');
    assert.equal(cache.get('c'), 'C');
    assert.equal(cache.size, 2);
  });

  it('keys a spot by the text near the cursor, not by edits far from it', () => {
    const far = 'x'.repeat(1000);
    assert.equal(contextKey('m', 'a.ts', `${far}A${'y'.repeat(600)}`, 'tail'), contextKey('m', 'a.ts', `${far}B${'y'.repeat(600)}`, 'tail'));
    assert.notEqual(contextKey('m', 'a.ts', 'const a = ', ''), contextKey('m', 'a.ts', 'const b = ', ''));
    assert.notEqual(contextKey('m', 'a.ts', 'p', 's1'), contextKey('m', 'a.ts', 'p', 's2'));
    assert.notEqual(contextKey('m1', 'a.ts', 'p', 's'), contextKey('m2', 'a.ts', 'p', 's'));
  });
});

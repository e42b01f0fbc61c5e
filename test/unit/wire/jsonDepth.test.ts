import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../src/wire/jsonDepth.ts';

describe('how deep a JSON text nests', () => {
  const nested = (depth: number, inner = '1') => `${'{"a":['.repeat(depth)}${inner}${']}'.repeat(depth)}`;

  it('counts objects and arrays, each level of the limit allowed and one more refused', () => {
    // Each repetition is two levels: an object and an array in it.
    assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH / 2)), false);
    assert.equal(nestsDeeperThan(`[${nested(MAX_JSON_DEPTH / 2)}]`), true);
    assert.equal(nestsDeeperThan(nested(3), 6), false);
    assert.equal(nestsDeeperThan(nested(4), 6), true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[[' + '{'.repeat(600), c: [[1]] });
    assert.equal(nestsDeeperThan(text), false);
    assert.equal(nestsDeeperThan(JSON.stringify({ s: '"'.repeat(700), deep: JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`) })), true);
    // A string that ends in a backslash: its closing quote follows an escaped backslash, and is not escaped itself.
    const deep = JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`);
    assert.equal(nestsDeeperThan(JSON.stringify({ a: 'x\\', b: deep })), true);
    assert.equal(nestsDeeperThan(JSON.stringify({ a: 'x\\\\"', b: deep })), true);
    assert.equal(nestsDeeperThan(JSON.stringify({ a: `${'['.repeat(600)}\\`, b: [[1]] })), false);
  });

  it('wide is not deep: many siblings at one level', () => {
    assert.equal(nestsDeeperThan(JSON.stringify(Array.from({ length: 5000 }, () => ({ a: [1] })))), false);
  });
});

import assert from 'node:assert/strict';
import { formatUsd } from '../../../src/contract/index.ts';

describe('contract formatUsd (the one display rule for money)', () => {
  it('is exact to the micro-dollar, with at least two decimals and no trailing zeros beyond', () => {
    assert.equal(formatUsd(10), '$10.00');
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(9.9996), '$9.9996');
    assert.equal(formatUsd(1.500001), '$1.500001');
    assert.equal(formatUsd(0.000038), '$0.000038');
    assert.equal(formatUsd(0.1 + 0.2), '$0.30', 'float noise below a micro-dollar never shows');
  });

  it('separates thousands and signs negatives', () => {
    assert.equal(formatUsd(1234.5678), '$1,234.5678');
    assert.equal(formatUsd(1_000_000), '$1,000,000.00');
    assert.equal(formatUsd(-0.005), '-$0.005');
    assert.equal(formatUsd(999), '$999.00');
    assert.equal(formatUsd(100_000), '$100,000.00');
    assert.equal(formatUsd(1_000_000_000), '$1,000,000,000.00', 'the largest balance the store takes');
    assert.equal(formatUsd(-12_345.5), '-$12,345.50');
  });
});

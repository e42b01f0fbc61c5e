import assert from 'node:assert/strict';
import { normalizeApiKey, redactKey } from '../../../src/client/apiKey.ts';
import { AuthenticationError } from '../../../src/client/errors.ts';

describe('client API key', () => {
  it('keeps a clean key as it is', () => {
    assert.deepEqual(normalizeApiKey('sk-abc123'), { key: 'sk-abc123', trimmed: false, note: null });
  });

  it('trims whitespace, quotes and a pasted "Bearer ", and says so', () => {
    for (const raw of [' sk-abc123', 'sk-abc123\n', '\u00a0sk-abc123\t', 'Bearer sk-abc123', 'bearer   sk-abc123 ', '"sk-abc123"', " 'Bearer sk-abc123' "]) {
      const result = normalizeApiKey(raw);
      assert.equal(result.key, 'sk-abc123', JSON.stringify(raw));
      assert.equal(result.trimmed, true);
      assert.notEqual(result.note, null);
    }
  });

  it('refuses a blank key with a typed error', () => {
    for (const raw of ['', '   ', '\n', 'Bearer ', '""']) {
      assert.throws(() => normalizeApiKey(raw), (e: unknown) => e instanceof AuthenticationError && e.code === 'missing_api_key' && e.firstCheck === 'key', JSON.stringify(raw));
    }
  });

  it('refuses a key broken by spaces or non-ASCII characters', () => {
    assert.throws(() => normalizeApiKey('sk-abc 123'), (e: unknown) => e instanceof AuthenticationError && e.code === 'api_key_whitespace');
    assert.throws(() => normalizeApiKey('sk-abc１２３'), (e: unknown) => e instanceof AuthenticationError && e.code === 'invalid_api_key');
  });

  it('redacts the key from log text', () => {
    const line = redactKey('failed with sk-abcdefghijkl and mykey-123', 'mykey-123');
    assert.equal(line.includes('sk-abcdefghijkl'), false);
    assert.equal(line.includes('mykey-123'), false);
  });
});

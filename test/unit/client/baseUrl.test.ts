import assert from 'node:assert/strict';
import { addressCandidates, addressHint, normalizeBaseUrl } from '../../../src/client/baseUrl.ts';
import { InvalidResponseError } from '../../../src/client/errors.ts';

describe('client base URL (contract 1.6)', () => {
  it('accepts the base with or without /v1, trailing slashes and whitespace', () => {
    for (const input of ['https://gw.example.com', 'https://gw.example.com/', ' https://gw.example.com/v1 ', 'https://gw.example.com/v1/', 'https://gw.example.com/V1', '\thttps://gw.example.com//\n']) {
      const base = normalizeBaseUrl(input);
      assert.equal(base.root, 'https://gw.example.com', input);
      assert.equal(base.apiBase, 'https://gw.example.com/v1', input);
    }
  });

  it('keeps a path prefix and a port', () => {
    const base = normalizeBaseUrl('http://127.0.0.1:3000/relay/v1');
    assert.equal(base.root, 'http://127.0.0.1:3000/relay');
    assert.equal(base.apiBase, 'http://127.0.0.1:3000/relay/v1');
  });

  it('removes a pasted endpoint path and the query, with a note', () => {
    const base = normalizeBaseUrl('https://gw.example.com/v1/chat/completions?x=1');
    assert.equal(base.apiBase, 'https://gw.example.com/v1');
    assert.notEqual(base.note, null);
    assert.equal(normalizeBaseUrl('https://gw.example.com').note, null);
  });

  it('removes only one /v1, so /v1/v1 is left for the address probe to explain', () => {
    assert.equal(normalizeBaseUrl('https://gw.example.com/v1/v1').apiBase, 'https://gw.example.com/v1/v1');
  });

  it('rejects non-http(s), schemeless and empty addresses with a typed error', () => {
    for (const input of ['', '   ', 'ftp://gw.example.com', 'gw.example.com/v1', 'file:///etc/passwd', 'https://user:pw@gw.example.com', 'http://']) {
      assert.throws(() => normalizeBaseUrl(input), (error: unknown) => error instanceof InvalidResponseError && error.code === 'invalid_base_url', input);
    }
  });

  it('lists shorter forms to probe, without the current one', () => {
    const v1v1 = addressCandidates(normalizeBaseUrl('https://h/v1/v1'));
    assert.deepEqual(v1v1.map((c) => c.apiBase), ['https://h/v1']);
    const api = addressCandidates(normalizeBaseUrl('https://h/v1/api'));
    assert.deepEqual(api.map((c) => c.apiBase), ['https://h/v1/v1', 'https://h/v1', 'https://h/v1/api']);
    const bare = addressCandidates(normalizeBaseUrl('https://h'));
    assert.deepEqual(bare.map((c) => c.apiBase), ['https://h']);
  });

  it('writes a hint naming the form that works', () => {
    const base = normalizeBaseUrl('https://h/v1/v1');
    assert.match(addressHint('https://h/v1/v1', base, { apiBase: 'https://h/v1', suggestion: 'https://h/v1' }), /\/v1\/v1/);
    assert.ok(addressHint('https://h/v1/api', normalizeBaseUrl('https://h/v1/api'), { apiBase: 'https://h/v1', suggestion: 'https://h/v1' }).includes('https://h/v1'));
  });
});

import assert from 'node:assert/strict';
import { redactSecrets as redact } from '../../../src/contract/index.ts';
import { formatRequestLine } from '../../../src/extension/log/redact.ts';

describe('extension redact', () => {
  it('scrubs sk- keys, Bearer values, key fields and exact known secrets', () => {
    assert.equal(redact('key sk-abcdefgh12345678 here'), 'key sk-**** here');
    assert.equal(redact('Authorization: Bearer abc.def-123'), 'Authorization: Bearer ****');
    assert.equal(redact('{"api_key": "mysecretvalue"}'), '{"api_key": "****"}');
    assert.equal(redact('token=zzzzzzzzzz&x=1'), 'token=****&x=1');
    assert.equal(redact('the key is plainkey42 ok', ['plainkey42']), 'the key is **** ok');
  });

  it('keeps the documentation placeholder "Bearer <API_KEY>"', () => {
    assert.equal(redact('send "Authorization: Bearer <API_KEY>"'), 'send "Authorization: Bearer <API_KEY>"');
  });

  it('formats one request line with method, path, status, time and request id, redacted', () => {
    const line = formatRequestLine({ method: 'get', path: '/v1/models', status: 401, durationMs: 12.4, requestId: 'r-1', error: 'Invalid token sk-abcdefgh12345678' });
    assert.equal(line, 'GET /v1/models 401 12ms request-id=r-1 error="Invalid token sk-****"');
    assert.equal(formatRequestLine({ method: 'POST', path: '/v1/chat/completions', status: null, durationMs: 3 }), 'POST /v1/chat/completions --- 3ms');
  });
});

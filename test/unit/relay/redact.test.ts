import assert from 'node:assert/strict';
import { redact } from '../../../src/gateway/relay/redact.ts';

describe('redact: upstream words never carry a key onward', () => {
  it("blanks the channel's own key wherever it appears, and anything shaped like a key or a bearer token", () => {
    const channel = { apiKey: 'upstream-secret-4242' };
    assert.equal(redact('bad header x-api-key=upstream-secret-4242 (upstream-secret-4242)', channel), 'bad header x-api-key=[redacted] ([redacted])');
    assert.equal(redact('Incorrect API key provided: sk-proj-AbC1****************xyZ9. Find yours at ...', channel), 'Incorrect API key provided: [redacted]. Find yours at ...');
    assert.equal(redact('invalid x-api-key sk-ant-api03-abcdefgh', { apiKey: null }), 'invalid x-api-key [redacted]');
    assert.equal(redact('header was "Bearer abc.def.ghi"', { apiKey: null }), 'header was "[redacted]"');
  });

  it('leaves ordinary messages alone', () => {
    for (const text of ["max_tokens is too large: 9000 > 8192", "Unsupported parameter: 'temperature'", 'risk-free task-based answer']) {
      assert.equal(redact(text, { apiKey: 'k' }), text);
    }
  });
});

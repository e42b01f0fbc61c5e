// Upstream words (a 4xx's message, an error event) reach clients and logs only after redactSecrets
// (contract/redact.ts): upstreams echo what they were sent, channel keys included.
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/contract/index.ts';

describe('upstream words never carry a key onward', () => {
  it("blanks the channel's own key wherever it appears, and anything shaped like a key or a bearer token", () => {
    const channelKey = 'upstream-secret-4242';
    assert.equal(redactSecrets('bad header x-api-key=upstream-secret-4242 (upstream-secret-4242)', [channelKey]), 'bad header x-api-key=**** (****)');
    assert.doesNotMatch(redactSecrets('Incorrect API key provided: sk-proj-AbC1234567890. Find yours at ...', []), /AbC1234567890/);
    assert.equal(redactSecrets('invalid x-api-key sk-ant-api03-abcdefgh', []), 'invalid x-api-key sk-****');
    assert.equal(redactSecrets('header was "Bearer abc.def.ghi"', []), 'header was "Bearer ****"');
  });

  it('leaves ordinary messages alone', () => {
    for (const text of ['max_tokens is too large: 9000 > 8192', "Unsupported parameter: 'temperature'", 'risk-free task-based answer']) {
      assert.equal(redactSecrets(text, ['k-long-enough']), text);
    }
  });
});

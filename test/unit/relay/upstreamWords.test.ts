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

  it('blanks a key echoed in part, in another case or encoded (Azure hex keys and Google keys have no sk- to spot)', () => {
    const key = '0123456789abcdef0123456789ABCDEF';
    const echoes = [
      `key ${key.slice(3)} is invalid`,
      `key ${key.slice(0, 20)}... is invalid`,
      `KEY ${key.toUpperCase()} REFUSED`,
      `auth=${Buffer.from(key).toString('base64')}`,
      `auth=${Buffer.from(key).toString('base64url').slice(5)}`,
      `raw ${Buffer.from(key).toString('hex')}`,
    ];
    for (const echo of echoes) {
      const out = redactSecrets(echo, [key]);
      assert.match(out, /\*\*\*\*/, echo);
      for (let i = 0; i + 12 <= key.length; i++) assert.ok(!out.toLowerCase().includes(key.slice(i, i + 12).toLowerCase()), `${out} still holds a piece of the key`);
    }
    assert.equal(redactSecrets('the key AIzaSyA1b2C3d4E5f6G7h8 was refused for AIzaSyA1b2C3', ['AIzaSyA1b2C3d4E5f6G7h8I9j0']), 'the key **** was refused for ****');
    assert.equal(redactSecrets('model 0123 not found', [key]), 'model 0123 not found', 'a run under 12 characters is not taken for the key');
  });

  it('leaves ordinary messages alone', () => {
    for (const text of ['max_tokens is too large: 9000 > 8192', "Unsupported parameter: 'temperature'", 'risk-free task-based answer']) {
      assert.equal(redactSecrets(text, ['k-long-enough']), text);
    }
  });
});

import assert from 'node:assert/strict';
import { withPlatformModel } from '../../../src/gateway/relay/modelName.ts';

const rewrite = (raw: string) => withPlatformModel(raw, JSON.parse(raw), 'platform');

describe('withPlatformModel', () => {
  it('returns the very same text when the name is already right', () => {
    const raw = '{"model":"platform","x":1}';
    assert.equal(rewrite(raw), raw);
  });

  it('replaces only the top-level model value, keeping every other byte', () => {
    assert.equal(rewrite('{"id":"a","model":"gpt-4o-2024","choices":[]}'), '{"id":"a","model":"platform","choices":[]}');
    assert.equal(rewrite('{"id": "a", "model" : "up", "n": 1.50}'), '{"id": "a", "model" : "platform", "n": 1.50}');
  });

  it('is not fooled by "model" inside strings', () => {
    const raw = '{"choices":[{"delta":{"content":"the \\"model\\":\\"up\\" text"}}],"model":"up"}';
    const out = rewrite(raw);
    assert.deepEqual(JSON.parse(out), { ...JSON.parse(raw), model: 'platform' });
  });

  it('falls back to a full rewrite when ambiguous or unusual, always producing the right object', () => {
    for (const raw of [
      '{"model":"up","extra":{"model":"up"}}',
      '{"model":"\\u0075p"}',
      '{"choices":[]}',
      '{"model":null}',
    ]) {
      assert.deepEqual(JSON.parse(rewrite(raw)), { ...JSON.parse(raw), model: 'platform' }, raw);
    }
  });
});

import assert from 'node:assert/strict';
import { channelSecrets, redactSecrets, shownUrl, unmaskUrl } from '../../../src/contract/index.ts';

describe('secrets in a channel\'s URLs', () => {
  it('are its key, a URL password and the base URL\'s query values, as written and encoded', () => {
    const secrets = channelSecrets({ apiKey: 'sk-abc123', baseUrl: 'https://api.example/v1?key=Q%2Fsecret&v=1', proxy: 'http://me:p%40ss-word@proxy:3128' });
    for (const s of ['sk-abc123', 'Q/secret', 'Q%2Fsecret', 'p@ss-word']) assert.ok(secrets.includes(s), s);
    assert.ok(!secrets.includes('1'), 'a value too short to be a secret is left');
    assert.equal(redactSecrets('called https://api.example/v1?key=Q%2Fsecret', secrets), 'called https://api.example/v1?key=****');
  });

  it('are masked where a URL is shown', () => {
    assert.equal(shownUrl('https://api.example/v1?key=abc&v=2'), 'https://api.example/v1?key=****&v=****');
    assert.equal(shownUrl('http://me:pw@proxy:3128'), 'http://me:****@proxy:3128/');
    assert.equal(shownUrl('https://api.example/v1'), 'https://api.example/v1', 'nothing to mask: as written');
  });

  it('sent back masked, keep what the masks hide; a value typed anew replaces it', () => {
    const stored = 'https://api.example/v1?key=abc123&region=eu';
    assert.equal(unmaskUrl('https://api.example/v2?key=****&region=****', stored), 'https://api.example/v2?key=abc123&region=eu');
    assert.equal(unmaskUrl('https://api.example/v1?key=new-one&region=****', stored), 'https://api.example/v1?key=new-one&region=eu');
    assert.equal(unmaskUrl('http://me:****@proxy:3129/', 'http://me:pw@proxy:3128'), 'http://me:pw@proxy:3129/');
    assert.equal(unmaskUrl('https://other.example/v1', stored), 'https://other.example/v1', 'no mask: as given');
  });
});

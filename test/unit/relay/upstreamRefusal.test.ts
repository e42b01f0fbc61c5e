// What an upstream's 403 is about (relay/upstreamRefusal.ts): only the key's disables a channel; only a
// moderation's is the client's to change; anything else is the channel's, and fails over.
import assert from 'node:assert/strict';
import { forbiddenAbout } from '../../../src/gateway/relay/upstreamRefusal.ts';

describe('forbiddenAbout', () => {
  it('tells the key, the request and the channel apart by the words', () => {
    const cases: [string, string][] = [
      ['Your API key has been deactivated.', 'key'],
      ['Your organization is prohibited from using this model', 'key'],
      ['This account has been suspended for billing reasons', 'key'],
      ['Your request was flagged by our content policy: violence', 'request'],
      ['Input rejected by moderation (flagged for self-harm)', 'request'],
      ['Access to this model is prohibited in your region', 'channel'],
      ['Country, region, or territory not supported', 'channel'],
      ['', 'channel'],
    ];
    for (const [words, about] of cases) assert.equal(forbiddenAbout(words), about, words);
  });
});

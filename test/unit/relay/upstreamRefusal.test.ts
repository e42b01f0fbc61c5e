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
      ['Your organization must be verified to use the model `gpt-image-1`. Please go to: https://platform.openai.com/settings/organization/general', 'channel'],
      ['Out of call volume quota for OpenAI API. Quota will be replenished in 00:00:52.', 'channel'],
      ['Key limit exceeded (daily limit)', 'channel'],
      ['Your resource has been temporarily blocked because we detected behavior that may violate our content policy', 'channel'],
      ['Your API key does not have permission to use the specified resource', 'key'],
      ['You exceeded your current quota, please check your plan and billing details', 'key'],
      ['Country, region, or territory not supported', 'channel'],
      ['', 'channel'],
    ];
    for (const [words, about] of cases) assert.equal(forbiddenAbout(words), about, words);
  });
});

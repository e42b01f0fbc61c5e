import assert from 'node:assert/strict';
import { findSecretsInSettings, looksLikeApiKey } from '../../../src/extension/secrets/inSettings.ts';

describe('extension: API keys in settings', () => {
  it('recognises sk- keys, with or without Bearer', () => {
    assert.equal(looksLikeApiKey('sk-abcdefgh12345678'), true);
    assert.equal(looksLikeApiKey(' Bearer sk-abcdefgh12345678 '), true);
    assert.equal(looksLikeApiKey('gpt-4o'), false);
    assert.equal(looksLikeApiKey('sk-1'), false);
    assert.equal(looksLikeApiKey(42), false);
  });

  it('finds a key by its setting name in any scope, and by its shape under any name', () => {
    const found = findSecretsInSettings([
      { name: 'apiKey', globalValue: 'abc123', workspaceValue: 'def456' },
      { name: 'model', workspaceFolderValue: 'sk-abcdefgh12345678' },
      { name: 'baseUrl', globalValue: 'https://gw.example' },
      { name: 'token', globalValue: '' },
      { name: 'requestTimeoutSeconds', globalValue: 30 },
    ]);
    assert.deepEqual(found, [
      { name: 'apiKey', scopes: ['global', 'workspace'], value: 'abc123' },
      { name: 'model', scopes: ['workspaceFolder'], value: 'sk-abcdefgh12345678' },
    ]);
  });

  it('finds nothing in ordinary settings', () => {
    assert.deepEqual(findSecretsInSettings([{ name: 'baseUrl', globalValue: 'https://x' }, { name: 'model', globalValue: 'echo' }]), []);
  });
});

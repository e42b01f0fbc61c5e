import assert from 'node:assert/strict';
import { DEFAULT_PROFILE, keySecretName, loadProfiles, profileNameProblem, withActiveSettings } from '../../../../src/extension/profiles/profiles.ts';
import { DEFAULT_SETTINGS } from '../../../../src/extension/settings/values.ts';

const settings = { ...DEFAULT_SETTINGS, baseUrl: 'https://work.example/v1', model: 'gpt-w', completionModel: 'fim-w' };

describe('profiles', () => {
  it('migrates: with nothing stored, the current settings become the Default profile, active', () => {
    for (const stored of [undefined, null, 'junk', { profiles: [] }, { profiles: [{ name: '  ' }] }]) {
      assert.deepEqual(loadProfiles(stored, settings), {
        active: DEFAULT_PROFILE,
        profiles: [{ name: DEFAULT_PROFILE, baseUrl: 'https://work.example/v1', model: 'gpt-w', completionModel: 'fim-w' }],
      });
    }
  });

  it('keeps the Default profile\'s key where it was before profiles, and each other profile\'s under its name', () => {
    assert.equal(keySecretName(DEFAULT_PROFILE), 'modelGateway.apiKey');
    assert.equal(keySecretName('Home lab'), 'modelGateway.profile.Home%20lab.apiKey');
    assert.notEqual(keySecretName('Work'), keySecretName('Home lab'));
  });

  it('reads stored profiles, dropping duplicates and bad entries, and falls back to the first when the active one is gone', () => {
    const state = loadProfiles({ active: 'Gone', profiles: [{ name: 'Work', baseUrl: ' https://w/ ', model: 1 }, { name: 'Work' }, 7, { name: 'Local', baseUrl: 'http://127.0.0.1:8080' }] }, settings);
    assert.deepEqual(state.profiles.map((p) => [p.name, p.baseUrl, p.model]), [['Work', 'https://w/', ''], ['Local', 'http://127.0.0.1:8080', '']]);
    assert.equal(state.active, 'Work');
  });

  it('lets the active profile follow the settings, and only it', () => {
    const state = loadProfiles({ active: 'Local', profiles: [{ name: 'Work', baseUrl: 'https://w' }, { name: 'Local', baseUrl: 'http://old' }] }, settings);
    const next = withActiveSettings(state, { ...settings, baseUrl: 'http://127.0.0.1:9' });
    assert.deepEqual(next.profiles.map((p) => p.baseUrl), ['https://w', 'http://127.0.0.1:9']);
  });

  it('refuses empty, too long and taken names (case-insensitive)', () => {
    const state = loadProfiles(undefined, settings);
    assert.equal(profileNameProblem('  ', state), 'empty');
    assert.equal(profileNameProblem('x'.repeat(41), state), 'too_long');
    assert.equal(profileNameProblem('default', state), 'taken');
    assert.equal(profileNameProblem(' Work ', state), null);
  });
});

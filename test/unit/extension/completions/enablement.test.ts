import assert from 'node:assert/strict';
import { completionsEnabledFor, languageEnabled, sanitizeLanguageSwitches, toggledSwitches } from '../../../../src/extension/completions/enablement.ts';

describe('completion enablement per language', () => {
  it('is off without a completion model, whatever the switches say', () => {
    assert.equal(completionsEnabledFor('typescript', '', { '*': true }), false);
    assert.equal(completionsEnabledFor('typescript', 'codestral', { '*': true }), true);
  });

  it('a language entry wins over "*"', () => {
    const switches = sanitizeLanguageSwitches({ '*': false, python: true });
    assert.equal(languageEnabled('python', switches), true);
    assert.equal(languageEnabled('go', switches), false);
  });

  it('prose is off by default, code on', () => {
    const switches = sanitizeLanguageSwitches(undefined);
    assert.equal(languageEnabled('plaintext', switches), false);
    assert.equal(languageEnabled('markdown', switches), false);
    assert.equal(languageEnabled('rust', switches), true);
  });

  it('a user object replaces the defaults: "*" alone turns prose on too', () => {
    assert.equal(languageEnabled('plaintext', sanitizeLanguageSwitches({ '*': true })), true);
  });

  it('drops entries that are not booleans', () => {
    const switches = sanitizeLanguageSwitches({ go: 'no', rust: false, '': true });
    assert.equal(languageEnabled('go', switches), true);
    assert.equal(languageEnabled('rust', switches), false);
    assert.equal(Object.hasOwn(switches, ''), false);
  });

  it('the toggle flips "*" and keeps the languages', () => {
    const off = toggledSwitches({ '*': true, plaintext: false, python: true });
    assert.deepEqual(off, { '*': false, plaintext: false, python: true });
    assert.equal(toggledSwitches(off)['*'], true);
  });
});

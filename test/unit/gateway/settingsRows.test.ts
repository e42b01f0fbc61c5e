import assert from 'node:assert/strict';
import { settingRows, toSettings } from '../../../src/gateway/store/settingsRows.ts';

describe('gateway settings rows', () => {
  it('a notice an earlier version stored with characters now refused is read without them (the gateway starts), while a new one is refused', () => {
    const stored = JSON.stringify('Welcome\u202e!\nLine two\u0085, \ud800done');
    assert.deepEqual(toSettings([{ name: 'notice', value: stored }]), { notice: 'Welcome!\nLine two, done' });
    assert.throws(() => settingRows({ notice: 'rtl\u202eevil' }), /notice must be printable text/);
    assert.deepEqual(settingRows({ notice: 'two\nlines' }), [['notice', JSON.stringify('two\nlines')]]);
  });

  it('a row that is not a notice at all still names itself to be repaired', () => {
    assert.throws(() => toSettings([{ name: 'notice', value: '42' }]), /gateway_settings row notice holds 42/);
    assert.throws(() => toSettings([{ name: 'notice', value: JSON.stringify('\u202e') }]), /gateway_settings row notice/, 'nothing left of it');
  });
});

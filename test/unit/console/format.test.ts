import assert from 'node:assert/strict';
import { formats } from '../../../src/console/i18n/format.ts';

describe('console formats', () => {
  it('times: milliseconds below a second, seconds to two places without zeros that say nothing', () => {
    const { ms } = formats('en');
    assert.deepEqual([ms(null), ms(27.4), ms(1290), ms(1500), ms(120_000)], ['—', '27 ms', '1.29 s', '1.5 s', '120 s']);
  });
});

import assert from 'node:assert/strict';
import { csvField } from '../../../src/gateway/routes/consoleLogs.ts';

describe('a CSV field of the logs export', () => {
  it('is made text when a spreadsheet could run it as a formula, blanks before it included', () => {
    for (const formula of ['=1+2', '+1', '-1+2', '@SUM(A1)', ' =1+2', '\t=1', '\r=1', '  @x', '\n-1', '\u00a0=1+2', '\ufeff=1', '\u3000+1']) {
      assert.ok(csvField(formula).replace(/^"/, '').startsWith("'"), JSON.stringify(formula));
    }
    for (const plain of ['gpt-4o', 'a=b', '12', '0.000123', 'x y']) assert.equal(csvField(plain), plain);
  });

  it('is quoted when it holds a quote, a comma or a line break', () => {
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField(null), '');
  });
});

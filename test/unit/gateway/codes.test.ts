// Redemption codes as people see them: 100 random bits in groups a person can read out, and what they
// type read back to the same code (case, spaces, the dashes, O for 0, I and L for 1), anything else none.
import assert from 'node:assert/strict';
import { hashRedemptionCode, newRedemptionCode, normalizeRedemptionCode } from '../../../src/gateway/accounts/codes.ts';

describe('redemption codes', () => {
  it('are MGC and five groups of four from Crockford base32 (no I, L, O, U), all different', () => {
    const codes = Array.from({ length: 2000 }, () => newRedemptionCode());
    for (const code of codes) assert.match(code, /^MGC(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
    assert.equal(new Set(codes).size, codes.length);
    // Every symbol of the alphabet appears: the randomness covers it (32 symbols, 40,000 draws).
    assert.equal(new Set(codes.map((c) => c.slice(4).replace(/-/g, '')).join('')).size, 32);
  });

  it('reads what a person types back to the code, and nothing else', () => {
    const code = 'MGC-AB12-CD34-EF56-GH78-JK90';
    for (const typed of [code, code.toLowerCase(), ` ${code} `, code.replace(/-/g, ' '), code.replace(/-/g, ''), code.slice(4), 'mgc-ab12-cd34-ef56-gh78-jk9o', 'MGC-AB|2-CD34-EF56-GH78-JK90'.replace('|', 'l')]) {
      assert.equal(normalizeRedemptionCode(typed), code, typed);
    }
    for (const typed of ['', 'MGC', `${code}0`, code.slice(0, -1), 'MGC-AB12-CD34-EF56-GH78-JKU0', 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCDEFG', 'MGC-AB12-CD34-EF56-GH78-JK9!']) {
      assert.equal(normalizeRedemptionCode(typed), null, typed);
    }
  });

  it('are kept as the SHA-256 of the canonical form', () => {
    assert.equal(hashRedemptionCode('MGC-AB12-CD34-EF56-GH78-JK90'), hashRedemptionCode(normalizeRedemptionCode('mgc ab12 cd34 ef56 gh78 jk90')!));
    assert.match(hashRedemptionCode('MGC-AB12-CD34-EF56-GH78-JK90'), /^[0-9a-f]{64}$/);
  });
});

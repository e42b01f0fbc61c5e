import assert from 'node:assert/strict';
import { decimalUsd, formatMicroUsd } from '../../../src/contract/index.ts';
import { usd } from '../../../src/console/i18n/format.ts';
import { affordableCompletionTokens, costOf, costOfTokens, parseUsd } from '../../../src/gateway/accounts/money.ts';

describe('money (integer micro-USD)', () => {
  it('parses decimal dollars exactly from the string', () => {
    assert.equal(parseUsd('10'), 10_000_000);
    assert.equal(parseUsd('0.15'), 150_000);
    assert.equal(parseUsd('2.000001'), 2_000_001);
    assert.equal(parseUsd('0.1'), 100_000);
    assert.equal(parseUsd('.5'), 500_000);
    assert.equal(parseUsd('$3.50'), 3_500_000);
    assert.equal(parseUsd('1.2300000'), 1_230_000);
    assert.equal(parseUsd('0.29'), 290_000, 'no float rounding (0.29 * 1e6 = 289999.99999999994)');
  });

  it('refuses what is not a plain non-negative amount', () => {
    for (const bad of ['', '-1', '1e3', 'abc', '1.0000001', '1,5', '0x10', 'NaN', '99999999999999']) assert.throws(() => parseUsd(bad), RangeError, bad);
  });

  it('formats micro-USD', () => {
    assert.equal(formatMicroUsd(10_000_000), '$10.00');
    assert.equal(formatMicroUsd(1_500_001), '$1.500001');
    assert.equal(formatMicroUsd(38), '$0.000038');
    assert.equal(formatMicroUsd(-5_000), '-$0.005');
  });

  it("the API's usd text is a plain decimal, which the console shows back exactly, however large", () => {
    // With thousands separators in it, the console read "1,234.56" as a number: a balance of $1,234.56 showed as $NaN.56.
    for (const [micro, text, shown] of [[1_234_560_000, '1234.56', '$1,234.56'], [5_000_000, '5.00', '$5.00'], [146, '0.000146', '$0.000146'], [1_000_000_000_000_001, '1000000000.000001', '$1,000,000,000.000001']] as const) {
      assert.equal(decimalUsd(micro), text);
      assert.equal(usd({ micro_usd: micro, usd: decimalUsd(micro) }), shown);
    }
    assert.equal(decimalUsd(-5_000), '-0.005');
  });

  it('cost is ceil(tokens × price / 1e6), exact for large numbers', () => {
    assert.equal(costOf(0, 0, 2_000_000, 8_000_000), 0);
    assert.equal(costOf(3, 4, 2_000_000, 8_000_000), 38);
    assert.equal(costOf(1, 0, 150_000, 600_000), 1, 'a fraction of a micro-dollar rounds up');
    assert.equal(costOf(1_000_000, 0, 150_000, 0), 150_000);
    assert.equal(costOf(9_000_000_000, 9_000_000_000, 900_000_000, 900_000_000), 16_200_000_000_000);
  });

  it('cost on plain numbers equals the BigInt reference, on both sides of 2^53', () => {
    const reference = (parts: [number, number][]): number => Number((parts.reduce((t, [n, p]) => t + BigInt(n) * BigInt(p), 0n) + 999_999n) / 1_000_000n);
    const edge = Number.MAX_SAFE_INTEGER;
    const cases: [number, number][][] = [
      [[edge - 999_999, 1]],
      [[edge - 999_998, 1]],
      [[edge, 1]],
      [[2 ** 26 + 1, 2 ** 27 + 3]],
      [[94_906_267, 94_906_267]],
      [[3, 1_000_000_000_000], [2 ** 40, 8191]],
    ];
    let seed = 7;
    const random = (max: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * max);
    };
    for (let i = 0; i < 2_000; i++) cases.push(Array.from({ length: 1 + random(4) }, () => [random(2 ** (1 + random(34))), random(2 ** (1 + random(40)))] as [number, number]));
    for (const parts of cases) assert.equal(costOfTokens(parts), reference(parts), JSON.stringify(parts));
  });

  it('affordable completion tokens never exceed the budget', () => {
    const n = affordableCompletionTokens(1000, 10, 2_000_000, 8_000_000);
    assert.equal(n, 122);
    assert.ok(costOf(10, n, 2_000_000, 8_000_000) <= 1000);
    assert.ok(costOf(10, n + 1, 2_000_000, 8_000_000) > 1000);
    assert.equal(affordableCompletionTokens(10, 100, 2_000_000, 8_000_000), -1);
    // A negative price would make the search run forever: refused instead.
    assert.throws(() => affordableCompletionTokens(1000, 10, 2_000_000, -8_000_000), RangeError);
    assert.throws(() => affordableCompletionTokens(1000, 10, -1, 8_000_000), RangeError);
    assert.equal(affordableCompletionTokens(10, 1, 0, 0), Number.MAX_SAFE_INTEGER);
  });

  it('affordable completion tokens on plain numbers equal the BigInt reference, on both sides of 2^53', () => {
    const reference = (budget: number, prompt: number, input: number, output: number): number => {
      const left = BigInt(budget) * 1_000_000n - BigInt(prompt) * BigInt(input);
      if (left < 0n) return -1;
      if (output === 0) return Number.MAX_SAFE_INTEGER;
      const tokens = left / BigInt(output);
      return tokens > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(tokens);
    };
    const cases: [number, number, number, number][] = [
      [9_007_199_254, 0, 1, 1], [9_007_199_255, 0, 1, 1], [1_000_000_000_000_000, 5, 2_000_000, 8_000_000],
      [2 ** 40, 3, 7, 2 ** 12], [4_503_599_627, 1, 1, 3], [1, 0, 0, 1_000_001], [0, 0, 5, 5], [5, 5, 1_000_000, 0],
    ];
    let seed = 11;
    const random = (max: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * max);
    };
    for (let i = 0; i < 5_000; i++) cases.push([random(2 ** (1 + random(45))), random(2 ** (1 + random(30))), random(2 ** (1 + random(26))), random(2 ** (1 + random(30)))]);
    for (const [b, p, inp, out] of cases) assert.equal(affordableCompletionTokens(b, p, inp, out), reference(b, p, inp, out), JSON.stringify([b, p, inp, out]));
  });
});

import assert from 'node:assert/strict';
import { pgArrayLiteral } from '../../../src/gateway/store/postgresQuery.ts';

describe('pgArrayLiteral', () => {
  const rows = [
    { n: 1, f: 2.5, b: true, t: 'plain' },
    { n: null, f: undefined, b: false, t: 'say "hi", {x} \\ back' },
    { n: -3, f: 1e-7, b: null, t: 'NULL' },
    { n: 0, f: 0, b: true, t: '' },
    { n: 7, f: 3, b: false, t: 'nul\u0000here' },
  ];

  it('writes numbers and booleans as they print, nulls as NULL', () => {
    assert.equal(pgArrayLiteral(rows, 'n', 'bigint'), '{1,NULL,-3,0,7}');
    assert.equal(pgArrayLiteral(rows, 'f', 'float8'), '{2.5,NULL,1e-7,0,3}');
    assert.equal(pgArrayLiteral(rows, 'b', 'boolean'), '{true,false,NULL,true,false}');
  });

  it('quotes text, escapes its quotes and backslashes, keeps "NULL" and empty text apart from NULL, mends a NUL', () => {
    assert.equal(pgArrayLiteral(rows, 't', 'text'), '{"plain","say \\"hi\\", {x} \\\\ back","NULL","","nul\uFFFDhere"}');
  });

  it('writes an empty array for no rows', () => {
    assert.equal(pgArrayLiteral([], 'n' as never, 'bigint'), '{}');
  });
});

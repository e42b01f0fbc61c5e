// Request ids: 12 base64url characters, unique, and never starting with - or _ (an id like -lpI2LZWA-jJ read as an
// option on a command line, and came back as '-lpI2LZWA-jJ from the CSV export's formula guard).
import assert from 'node:assert/strict';
import { newRequestId } from '../../../src/gateway/http/requestId.ts';

describe('request ids', () => {
  it('are 12 base64url characters, unique, the first a letter or a digit', () => {
    const ids = Array.from({ length: 20_000 }, () => newRequestId());
    for (const id of ids) assert.match(id, /^[A-Za-z0-9][A-Za-z0-9_-]{11}$/, id);
    assert.equal(new Set(ids).size, ids.length);
    // Of 20,000 ids about 600 would have started with - or _: the rule is exercised, not missed by chance.
    assert.ok(ids.filter((id) => id.startsWith('x') || id.startsWith('y')).length > 2 * (20_000 / 64) + 300);
  });
});

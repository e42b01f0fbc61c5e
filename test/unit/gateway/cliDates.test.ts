import assert from 'node:assert/strict';
import { futureDate, isoDate, UsageError } from '../../../src/gateway/cliArgs.ts';

describe('CLI dates (--expires, --before)', () => {
  it('reads dates and date-times as UTC unless an offset says otherwise, whatever the machine\'s time zone', () => {
    assert.equal(isoDate('2027-02-28', 'expires'), Date.UTC(2027, 1, 28));
    assert.equal(isoDate('2028-02-29', 'expires'), Date.UTC(2028, 1, 29), 'a leap day');
    assert.equal(isoDate('2027-03-01T07:00:00', 'expires'), Date.UTC(2027, 2, 1, 7), 'no offset: UTC, not local time');
    assert.equal(isoDate('2027-03-01 07:00', 'expires'), Date.UTC(2027, 2, 1, 7));
    assert.equal(isoDate('2027-03-01T07:00:00+09:00', 'expires'), Date.UTC(2027, 2, 0, 22));
    assert.equal(isoDate('2027-03-01T07:00:00.250-0130', 'expires'), Date.UTC(2027, 2, 1, 8, 30, 0, 250));
  });

  it('refuses a day or time that does not exist instead of rolling it over', () => {
    for (const bad of ['2027-02-29', '2027-02-30', '2027-04-31', '2027-13-01', '2027-00-10', '2027-01-00', '2027-02-29T10:00:00', '2027-01-01T24:00', '2027-01-01T10:60', 'tomorrow', '2027-1-1', '2027-01-01T00:00:00+25:00', '2027-01-01T00:00:00-03:75']) {
      assert.throws(() => isoDate(bad, 'expires'), (e: unknown) => e instanceof UsageError && /--expires must be an ISO-8601 date/.test(e.message), bad);
    }
    assert.throws(() => isoDate('2027-02-30', 'before'), /2027-02-30 is not a day of the calendar/);
    assert.throws(() => isoDate('2027-01-01T00:00:00+25:00', 'expires'), /\+25:00 is not a time zone's offset/);
    assert.equal(isoDate('2027-01-01T00:00:00+14:00', 'expires'), Date.UTC(2026, 11, 31, 10), 'Kiribati');
  });

  it('an expiry must be to come', () => {
    assert.throws(() => futureDate('2020-01-01', 'expires', 'the key', Date.UTC(2026, 0, 1)), /in the past .* the key would be born expired/);
    assert.equal(futureDate('2030-01-01', 'expires', 'the key', Date.UTC(2026, 0, 1)), Date.UTC(2030, 0, 1));
  });
});

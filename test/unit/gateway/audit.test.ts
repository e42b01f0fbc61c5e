// The audit log's rows are checked before any store writes them: a known action, and no field that
// would hold a secret (by its name's words, however deep), while ordinary fields pass.
import assert from 'node:assert/strict';
import { auditRow, auditSql } from '../../../src/gateway/store/audit.ts';
import { StoreError, type AuditEntry } from '../../../src/gateway/store/types.ts';

const entry = (details: Record<string, unknown>): AuditEntry => ({ actor: 'root', action: 'user.create', target: 'ada', details });
const refused = (error: unknown) => error instanceof StoreError && error.code === 'invalid';

describe('audit rows', () => {
  it('refuses details with a field named like a secret, at any depth', () => {
    for (const details of [
      { password: 'x' }, { newPassword: 'x' }, { new_password: 'x' }, { api_key: 'x' }, { apiKey: 'x' }, { channel: { api_key: 'x' } },
      { session_token: 'x' }, { password_hash: 'x' }, { key: 'x' }, { secret: 'x' }, { list: [{ token: 'x' }] }, { Cookie: 'x' }, { passphrase: 'x' },
      { code: 'x' }, { codes: ['x'] }, { redemptionCode: 'x' }, { batch: { codes: ['x'] } },
    ]) assert.throws(() => auditRow(entry(details)), refused, JSON.stringify(details));
  });

  it('passes ordinary fields, and keeps no empty details', () => {
    const details = { account: 'team', admin: true, max_tokens: 5, defaultMaxTokens: 9, key_name: 'laptop', amount_micro_usd: 1, models: { a: 'b' }, batch: 'spring', count: 3 };
    assert.deepEqual(auditRow(entry(details)), { actor: 'root', action: 'user.create', target: 'ada', details: JSON.stringify(details), viaToken: null });
    assert.equal(auditRow(entry({})).details, null);
    assert.equal(auditRow({ actor: 'root', action: 'user.disable', target: 'ada' }).details, null);
  });

  it('names the admin access token an admin acted through, and null when none', () => {
    assert.equal(auditRow({ actor: 'root', action: 'account.topup', target: 'team', viaToken: 'nightly-script' }).viaToken, 'nightly-script');
    assert.equal(auditRow({ actor: 'root', action: 'account.topup', target: 'team', viaToken: null }).viaToken, null);
  });

  it('refuses an action the contract does not list', () => {
    assert.throws(() => auditRow({ actor: 'root', action: 'user.delete' as AuditEntry['action'], target: 'ada' }), refused);
  });

  it('lists with both placeholders, filters in order, newest first', () => {
    assert.deepEqual(auditSql({ actor: 'root', action: 'account.topup', beforeId: 9, limit: 5 }, (n) => `$${n}`),
      { sql: 'SELECT * FROM audit_log WHERE actor = $1 AND action = $2 AND id < $3 ORDER BY id DESC LIMIT $4', params: ['root', 'account.topup', 9, 5] });
    assert.deepEqual(auditSql({ limit: 5 }, () => '?'), { sql: 'SELECT * FROM audit_log ORDER BY id DESC LIMIT ?', params: [5] });
  });
});

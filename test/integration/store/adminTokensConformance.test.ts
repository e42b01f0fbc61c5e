// Admin access tokens, one behaviour on every Store (memory, SQLite, PostgreSQL): made with their audit
// row in one step (a refused row refuses the token), a name unique among the tokens not revoked, found
// by hash, listed oldest first, revoked once (a second revocation changes and records nothing), use
// recorded forward only, and the audit log naming the token an admin acted through. The SQL stores keep
// them across connections, and their databases refuse a row that is not a SHA-256.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { StoreError, type AuditEntry, type Store, type UserRecord } from '../../../src/gateway/store/types.ts';
import { describeEachStore, type StoreUnderTest, type RawSql } from '../../support/stores.ts';

const storeError = (code: string) => (error: unknown) => error instanceof StoreError && error.code === code;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const made = (actor: string, target: string, viaToken?: string): AuditEntry => ({ actor, action: 'token.create', target, ...(viaToken ? { viaToken } : {}) });

describeEachStore('the Store interface, admin access tokens', (current, name) => {
  let store: Store;
  let raw: RawSql | null;
  let another: StoreUnderTest['another'];
  let root: UserRecord;
  beforeEach(async () => {
    ({ store, raw, another } = current());
    const account = await store.createAccount('root', 0);
    root = await store.createUser({ name: 'root', accountId: account.id, admin: true, passwordHash: 'x' });
  });

  const token = (tokenName: string, hash = sha(tokenName), expiresAt: number | null = null) => ({ name: tokenName, hash, prefix: 'mgt-abcd…', createdBy: root.id, expiresAt });

  it('makes a token with its audit row in one step, and finds it by hash', async () => {
    const started = Date.now();
    const t = await store.adminTokens.create(token('nightly', sha('mgt-secret'), started + 60_000), made('root', 'nightly'));
    assert.deepEqual({ ...t, id: 0, createdAt: 0 }, { id: 0, name: 'nightly', hash: sha('mgt-secret'), prefix: 'mgt-abcd…', createdBy: root.id, createdAt: 0, expiresAt: started + 60_000, revokedAt: null, lastUsedAt: null });
    assert.ok(t.createdAt >= started - 1000 && t.createdAt <= Date.now() + 1000);
    assert.deepEqual(await store.adminTokens.findByHash(sha('mgt-secret')), t);
    assert.equal(await store.adminTokens.findByHash(sha('mgt-other')), null);
    const [row] = await store.listAudit({ limit: 10 });
    assert.deepEqual([row!.actor, row!.action, row!.target, row!.viaToken], ['root', 'token.create', 'nightly', null]);
  });

  it('keeps a name unique among the tokens not revoked: taken is a conflict that writes nothing; free again once revoked', async () => {
    const first = await store.adminTokens.create(token('ci'), made('root', 'ci'));
    await assert.rejects(store.adminTokens.create(token('ci', sha('another')), made('root', 'ci')), storeError('conflict'));
    await assert.rejects(store.adminTokens.create(token('other', first.hash), made('root', 'other')), storeError('conflict'), 'a hash is unique');
    assert.equal((await store.listAudit({ limit: 10 })).length, 1, 'the refused tokens wrote no audit row');
    await store.adminTokens.revoke(first.id, Date.now());
    const second = await store.adminTokens.create(token('ci', sha('another')));
    assert.deepEqual((await store.adminTokens.list()).map((t) => [t.id, t.name, t.revokedAt === null]), [[first.id, 'ci', false], [second.id, 'ci', true]]);
  });

  it('refuses a token of a user that does not exist, and a token whose audit row would hold a secret: nothing is made', async () => {
    await assert.rejects(store.adminTokens.create({ ...token('ghost'), createdBy: root.id + 1000 }), storeError('not_found'));
    await assert.rejects(store.adminTokens.create(token('leaky'), { ...made('root', 'leaky'), details: { token: 'mgt-x' } }), storeError('invalid'));
    assert.deepEqual(await store.adminTokens.list(), []);
    assert.deepEqual(await store.listAudit({ limit: 10 }), []);
  });

  it('revokes once, with its audit row; a second revocation answers the token as it is and records nothing; an unknown id is not found', async () => {
    const t = await store.adminTokens.create(token('deploy'));
    const at = Date.now();
    const revoked = await store.adminTokens.revoke(t.id, at, { actor: 'root', action: 'token.revoke', target: 'deploy', viaToken: 'ops-bot' });
    assert.equal(revoked.revokedAt, at);
    const again = await store.adminTokens.revoke(t.id, at + 5000, { actor: 'root', action: 'token.revoke', target: 'deploy' });
    assert.equal(again.revokedAt, at, 'the first revocation stands');
    const rows = await store.listAudit({ action: 'token.revoke', limit: 10 });
    assert.deepEqual(rows.map((r) => [r.actor, r.target, r.viaToken]), [['root', 'deploy', 'ops-bot']]);
    await assert.rejects(store.adminTokens.revoke(t.id + 1000, at), storeError('not_found'));
    assert.equal((await store.adminTokens.findByHash(t.hash))!.revokedAt, at);
  });

  it('records use forward only', async () => {
    const t = await store.adminTokens.create(token('poller'));
    await store.adminTokens.touch(t.id, 5_000);
    await store.adminTokens.touch(t.id, 3_000);
    assert.equal((await store.adminTokens.findByHash(t.hash))!.lastUsedAt, 5_000);
    await store.adminTokens.touch(t.id + 1000, 9_000);
  });

  it('names the token an admin acted through on any audited change, and null otherwise', async () => {
    await store.topUp('root', 5, { actor: 'root', action: 'account.topup', target: 'root', details: { amount_micro_usd: 5 }, viaToken: 'nightly' });
    await store.appendAudit({ actor: 'root', action: 'user.disable', target: 'x' });
    const [plain, viaToken] = await store.listAudit({ limit: 10 });
    assert.equal(plain!.viaToken, null);
    assert.deepEqual([viaToken!.action, viaToken!.viaToken, viaToken!.details], ['account.topup', 'nightly', { amount_micro_usd: 5 }]);
  });

  if (name !== 'memory') {
    it('keeps tokens for another connection, and the database refuses a hash that is not a SHA-256', async () => {
      const t = await store.adminTokens.create(token('kept'), made('root', 'kept', 'parent'));
      const other = await another!();
      try {
        assert.deepEqual(await other.adminTokens.list(), [t]);
        assert.equal((await other.listAudit({ limit: 1 }))[0]!.viaToken, 'parent');
      } finally {
        await other.close();
      }
      await assert.rejects(raw!(`INSERT INTO admin_tokens (name, token_hash, token_prefix, created_by, created_at) VALUES ('bad', 'mgt-plain-text', 'mgt-', ${root.id}, 1)`));
    });
  }
});

import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { MIN_PASSWORD_LENGTH } from '../../../src/contract/index.ts';
import { HASHES_AT_ONCE, HASHES_WAITING, hashPassword, PasswordChecksBusy, passwordProblem, verifyAgainstNothing, verifyPassword } from '../../../src/gateway/accounts/passwords.ts';

describe('console passwords', () => {
  it('argon2id with its parameters, verified only by the same password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    assert.match(stored, /^argon2id\$m=19456,t=2,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.ok(!stored.includes('horse'));
    assert.equal(await verifyPassword('correct horse battery staple', stored), true);
    assert.equal(await verifyPassword('correct horse battery stapler', stored), false);
    assert.notEqual(await hashPassword('correct horse battery staple'), stored, 'a new salt each time');
  });

  it('reads scrypt hashes (what an older Node without argon2 wrote) and refuses anything unreadable', async () => {
    const salt = randomBytes(16);
    const hash = scryptSync('an older password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const stored = `scrypt$N=32768,r=8,p=1$${salt.toString('base64')}$${hash.toString('base64')}`;
    assert.equal(await verifyPassword('an older password', stored), true);
    assert.equal(await verifyPassword('another password', stored), false);
    const damaged = ['', 'plain', 'md5$x$y$z', 'argon2id$$$', 'argon2id$m=x,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA==$aGFzaA==', 'scrypt$N=3,r=8,p=1$c2FsdA==$aGFzaA=='];
    for (const junk of damaged) assert.equal(await verifyPassword('whatever123', junk), false, junk);
    assert.equal(await verifyAgainstNothing('anything at all'), false);
  });

  it('hashes off the event loop: other work runs while a password is checked', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const order: string[] = [];
    const checked = verifyPassword('correct horse battery staple', stored).then((right) => order.push(`checked ${right}`));
    await new Promise((resolve) => setImmediate(resolve));
    order.push('next turn of the loop');
    await checked;
    assert.deepEqual(order, ['next turn of the loop', 'checked true']);
  });

  it(`${HASHES_AT_ONCE} hashes at once and ${HASHES_WAITING} waiting; one more is refused at once (503 password_checks_busy)`, async () => {
    const stored = await hashPassword('correct horse battery staple');
    const all = Array.from({ length: HASHES_AT_ONCE + HASHES_WAITING }, () => verifyPassword('correct horse battery staple', stored));
    await assert.rejects(verifyPassword('correct horse battery staple', stored), PasswordChecksBusy);
    await assert.rejects(hashPassword('a new password here'), PasswordChecksBusy, 'new passwords wait in the same line');
    assert.deepEqual(await Promise.all(all), all.map(() => true), 'every one that waited got its answer');
    assert.equal(await verifyPassword('correct horse battery staple', stored), true, 'the slots are free again');
  });

  it(`new passwords: at least ${MIN_PASSWORD_LENGTH} characters, at most 1024`, () => {
    assert.match(passwordProblem('short')!, /at least 10/);
    assert.equal(passwordProblem('long enough!'), null);
    assert.match(passwordProblem('x'.repeat(2000))!, /at most 1024/);
  });
});

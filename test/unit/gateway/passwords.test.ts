import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { MIN_PASSWORD_LENGTH } from '../../../src/contract/index.ts';
import { hashPassword, passwordProblem, verifyAgainstNothing, verifyPassword } from '../../../src/gateway/accounts/passwords.ts';

describe('console passwords', () => {
  it('argon2id with its parameters, verified only by the same password', () => {
    const stored = hashPassword('correct horse battery staple');
    assert.match(stored, /^argon2id\$m=19456,t=2,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.ok(!stored.includes('horse'));
    assert.equal(verifyPassword('correct horse battery staple', stored), true);
    assert.equal(verifyPassword('correct horse battery stapler', stored), false);
    assert.notEqual(hashPassword('correct horse battery staple'), stored, 'a new salt each time');
  });

  it('reads scrypt hashes (what an older Node without argon2 wrote) and refuses anything unreadable', () => {
    const salt = randomBytes(16);
    const hash = scryptSync('an older password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const stored = `scrypt$N=32768,r=8,p=1$${salt.toString('base64')}$${hash.toString('base64')}`;
    assert.equal(verifyPassword('an older password', stored), true);
    assert.equal(verifyPassword('another password', stored), false);
    for (const junk of ['', 'plain', 'md5$x$y$z', 'argon2id$$$']) assert.equal(verifyPassword('whatever123', junk), false, junk);
    assert.equal(verifyAgainstNothing('anything at all'), false);
  });

  it(`new passwords: at least ${MIN_PASSWORD_LENGTH} characters, at most 1024`, () => {
    assert.match(passwordProblem('short')!, /at least 10/);
    assert.equal(passwordProblem('long enough!'), null);
    assert.match(passwordProblem('x'.repeat(2000))!, /at most 1024/);
  });
});

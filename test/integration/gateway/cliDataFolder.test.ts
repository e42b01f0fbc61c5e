// The data folder as it is found: read-only (a read-only bind mount), on a full disk, or made loose by an older
// version or a `cp`. Mounting needs root (CI runs as root); where mount is refused, those tests are skipped, saying why.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.ts';
import { runCli } from './serveProcess.ts';

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** Unmounts `path`, lazily should a file there still be open (the assertion that failed says what matters). */
function unmount(path: string): void {
  try {
    execFileSync('umount', [path], { stdio: 'pipe' });
  } catch {
    execFileSync('umount', ['-l', path], { stdio: 'pipe' });
  }
}

/** Runs `mount` with `args`; false (said on the test's output) when this machine does not allow it. */
function mounted(args: string[]): boolean {
  try {
    execFileSync('mount', args, { stdio: 'pipe' });
    return true;
  } catch (error) {
    console.log(`      skipped: mount ${args.join(' ')} is not possible here (${String((error as { stderr?: unknown }).stderr ?? error).trim()}); it needs root`);
    return false;
  }
}

describe('model-gateway CLI: the data folder as it is found', () => {
  let root: string;
  let data: string;
  const cli = (dir: string, ...args: string[]) => runCli(['--data', dir, ...args]);
  beforeEach(async () => {
    root = tempDir();
    data = join(root, 'data');
    assert.equal((await cli(data, 'account', 'create', 'local', '--balance', '5')).code, 0);
    assert.equal((await cli(data, 'key', 'create', '--account', 'local', '--name', 'k')).code, 0);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('on a read-only folder the commands that read work (backup too), and those that write say it is read-only', async function () {
    const view = join(root, 'view');
    mkdirSync(view);
    if (!mounted(['--bind', data, view])) this.skip();
    try {
      if (!mounted(['-o', 'remount,ro,bind', view])) this.skip();
      for (const args of [['account', 'show', 'local'], ['key', 'list'], ['channel', 'list'], ['model', 'list'], ['user', 'list'], ['settings', 'show'], ['logs'], ['token', 'list']]) {
        const run = await cli(view, ...args);
        assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
        assert.equal(run.stderr, '', args.join(' '));
      }
      assert.match((await cli(view, 'account', 'show', 'local')).stdout, /balance \$5\.00/);
      const copy = join(root, 'copy.db');
      const backup = await cli(view, 'backup', copy);
      assert.equal(backup.code, 0, backup.stderr);
      assert.equal(existsSync(copy), true);
      for (const args of [['account', 'topup', 'local', '1'], ['account', 'create', 'other'], ['key', 'disable', 'k'], ['serve', '--port', '0']]) {
        const run = await cli(view, ...args);
        assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, /the data folder .*view is read-only \(it is on a read-only file system\), and this command writes to it/, args.join(' '));
        assert.doesNotMatch(run.stderr, /EROFS/);
      }
    } finally {
      unmount(view);
    }
    assert.match((await cli(data, 'account', 'show', 'local')).stdout, /balance \$5\.00/, 'nothing was changed');
  });

  it('a read-only copy with a write-ahead log but no shared-memory file is refused in words, never shown without the log\'s rows', async function () {
    // A copy taken while a gateway wrote: its -wal holds the newest rows, its -shm was left out (an rsync excluding it).
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const writer = new DatabaseSync(join(data, 'gateway.db'));
    const copied = join(root, 'copied');
    try {
      writer.exec('PRAGMA wal_autocheckpoint = 0');
      writer.exec("UPDATE accounts SET balance = 7000000 WHERE name = 'local'");
      mkdirSync(copied, { mode: 0o700 });
      for (const name of ['gateway.db', 'gateway.db-wal', 'secret.key']) if (existsSync(join(data, name))) copyFileSync(join(data, name), join(copied, name));
    } finally {
      writer.close();
    }
    const view = join(root, 'copied-view');
    mkdirSync(view);
    if (!mounted(['--bind', copied, view])) this.skip();
    try {
      if (!mounted(['-o', 'remount,ro,bind', view])) this.skip();
      const run = await cli(view, 'account', 'show', 'local');
      assert.notEqual(run.code, 0, run.stdout);
      assert.match(run.stderr, /gateway\.db-wal holds changes not yet in .*gateway\.db.*without its .*gateway\.db-shm/);
      assert.doesNotMatch(run.stdout, /\$5\.00/, 'never the stale balance');
    } finally {
      unmount(view);
    }
  });

  it('on a full disk, a command says the disk holding the folder is full, not a bare "disk I/O error"', async function () {
    const small = join(root, 'small');
    mkdirSync(small);
    if (!mounted(['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', small])) this.skip();
    try {
      const folder = join(small, 'data');
      assert.equal((await cli(folder, 'account', 'create', 'local')).code, 0);
      // Filled to the last byte.
      for (let size = 1 << 20; size >= 1; size >>= 1) {
        for (let i = 0; ; i++) {
          try {
            writeFileSync(join(small, `fill-${size}-${i}`), Buffer.alloc(size));
          } catch {
            break;
          }
        }
      }
      for (const args of [['account', 'show', 'local'], ['account', 'topup', 'local', '1']]) {
        const run = await cli(folder, ...args);
        assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, /the disk holding the data folder .*small\/data is full \(\d+ bytes free\): the store cannot be written/, args.join(' '));
      }
    } finally {
      unmount(small);
    }
  });

  it('a folder and secret.key made loose (a cp, an older version) are tightened to 0700 and 0600 when the folder is opened, said once', async () => {
    chmodSync(data, 0o755);
    chmodSync(join(data, 'secret.key'), 0o644);
    const first = await cli(data, 'account', 'topup', 'local', '1');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /tightened .*data from 0755 to 0700: the data folder is its owner's only/);
    assert.match(first.stderr, /tightened .*secret\.key from 0644 to 0600: secret\.key \(the key that seals channel keys\)/);
    assert.deepEqual([mode(data), mode(join(data, 'secret.key'))], ['700', '600']);
    const again = await cli(data, 'account', 'show', 'local');
    assert.equal(again.stderr, '', 'said once: a tight folder is left as it is');
  });

  it("a loose secret.key of another user is warned of, not changed", async function () {
    if (process.getuid?.() !== 0) {
      console.log('      skipped: giving a file to another user needs root');
      this.skip();
    }
    const key = join(data, 'secret.key');
    chmodSync(key, 0o644);
    chownSync(key, 65534, 65534);
    const run = await cli(data, 'account', 'show', 'local');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /warning: .*secret\.key is 0644, readable by other users, and could not be made 0600 \(it belongs to another user\).*chmod 0600/);
    assert.equal(mode(key), '644');
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refuseEmptyFile } from '../../../src/gateway/store/sqliteOpen.ts';

describe('opening a SQLite store file', () => {
  it('an empty file another process is creating is waited for, not called damaged (commands started together on a new folder)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-open-'));
    try {
      const file = join(dir, 'gateway.db');
      writeFileSync(file, '');
      // The other process writes its first page a moment later, while this one waits (synchronously, as a store opens).
      const creator = spawn(process.execPath, ['-e', `setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(file)}, 'SQLite format 3\\0'), 300)`]);
      const done = new Promise((resolve) => creator.on('close', resolve));
      assert.doesNotThrow(() => refuseEmptyFile(file));
      await done;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

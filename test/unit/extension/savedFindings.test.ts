// Review findings kept across reloads: what is read back from the workspace state (only well-formed files, bounded),
// and which files' findings still fit their text.
import assert from 'node:assert/strict';
import { savedFiles, stillFitting, textHash, type SavedFile } from '../../../src/extension/review/savedFindings.ts';

const finding = { line: 2, message: 'off by one', severity: 0, source: 'Model Gateway review (m)' };
const file = (uri: string, text: string): SavedFile => ({ uri, root: 'file:///repo', hash: textHash(text), findings: [finding] });

describe('review findings kept across reloads', () => {
  it('reads back well-formed files and drops anything else', () => {
    const good = file('file:///repo/a.ts', 'a');
    assert.deepEqual(savedFiles({ version: 1, files: [good] }), [good]);
    assert.deepEqual(savedFiles(undefined), []);
    assert.deepEqual(savedFiles({ version: 2, files: [good] }), [], 'a newer version is not guessed at');
    assert.deepEqual(savedFiles({ version: 1, files: 'x' }), []);
    const broken = [
      { ...good, uri: 3 },
      { ...good, findings: [{ ...finding, line: -1 }] },
      { ...good, findings: [{ ...finding, severity: 9 }] },
      { ...good, findings: [{ ...finding, message: null }] },
      null,
    ];
    assert.deepEqual(savedFiles({ version: 1, files: broken }), []);
  });

  it('keeps at most 2,000 findings whatever the state holds', () => {
    const many = { ...file('file:///repo/a.ts', 'a'), findings: Array.from({ length: 1500 }, (_, i) => ({ ...finding, line: i })) };
    const files = savedFiles({ version: 1, files: [many, { ...many, uri: 'file:///repo/b.ts' }] });
    assert.equal(files.reduce((n, f) => n + f.findings.length, 0), 2000);
  });

  it('brings back the files whose text is the one the findings were placed on, not changed or deleted ones', async () => {
    const texts = new Map([['file:///repo/same.ts', 'one\ntwo\nthree'], ['file:///repo/changed.ts', 'inserted\none\ntwo']]);
    const saved = [file('file:///repo/same.ts', 'one\ntwo\nthree'), file('file:///repo/changed.ts', 'one\ntwo'), file('file:///repo/gone.ts', 'x')];
    const kept = await stillFitting(saved, async (uri) => texts.get(uri) ?? null);
    assert.deepEqual(kept.map((f) => f.uri), ['file:///repo/same.ts']);
  });
});

// Every t() string of @gateway (chat/) and the LM provider (lm/) has a Simplified Chinese translation.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../../..');
const bundle = JSON.parse(readFileSync(join(root, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

function translatedStrings(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bt\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2]!.replace(/\\(['"\\])/g, '$1'));
}

describe('chat and lm l10n (zh-cn)', () => {
  const dirs = ['src/extension/chat', 'src/extension/lm'].map((d) => join(root, d));
  const files = dirs.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f)));

  it('finds the strings', () => assert.ok(files.flatMap(translatedStrings).length > 20));

  it('translates every t() string', () => {
    const missing = [...new Set(files.flatMap(translatedStrings))].filter((s) => !(s in bundle) || bundle[s]!.trim() === '');
    assert.deepEqual(missing, []);
  });
});

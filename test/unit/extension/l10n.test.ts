// Every runtime string of the extension's own UI (and the contract's explanations) has a
// Simplified Chinese translation that keeps its {0} placeholders.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERROR_CODES, STATUS_FAMILIES, TROUBLESHOOTING_STEPS } from '../../../src/contract/index.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = JSON.parse(readFileSync(join(root, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

/** The string literals passed to `t(...)` / `vscode.l10n.t(...)` in a file. */
function translatedStrings(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/\bt\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)) out.push(m[2]!.replace(/\\(['"\\])/g, '$1'));
  return out;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

describe('extension l10n (zh-cn)', () => {
  const strings = [...new Set(files(join(root, 'src/extension')).flatMap(translatedStrings))];

  it('finds the t() strings of the extension', () => assert.ok(strings.length > 100, `only ${strings.length} found: the pattern no longer matches the code`));

  it('translates every t() string of the extension', () => {
    const missing = strings.filter((s) => !(s in bundle) || bundle[s]!.trim() === '');
    assert.deepEqual(missing, []);
  });

  it('translates the step titles of the self-test and the contract table', () => {
    const run = readFileSync(join(root, 'src/extension/selfTest/run.ts'), 'utf8');
    const titles = [...run.matchAll(/^\s+\w+: '([^']+\(\w+ \/[^']+\))',$/gm)].map((m) => m[1]!);
    assert.equal(titles.length, 3);
    const contract = [
      ...Object.values(STATUS_FAMILIES).flatMap((f) => [f.title, f.meaning, f.action]),
      ...TROUBLESHOOTING_STEPS.map((s) => s.text),
      ...Object.values(ERROR_CODES).map((c) => c.message),
    ];
    assert.deepEqual([...titles, ...contract].filter((s) => !(s in bundle)), []);
  });

  it('keeps the placeholders of every entry', () => {
    for (const [english, chinese] of Object.entries(bundle)) assert.deepEqual(placeholders(chinese), placeholders(english), english);
  });

  it('has a Chinese entry for every package.nls.json key', () => {
    const en = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const zh = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(en).filter((k) => !(k in zh)), []);
    const pkg = readFileSync(join(root, 'package.json'), 'utf8');
    const used = [...pkg.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!);
    assert.deepEqual(used.filter((k) => !(k in en)), []);
  });
});

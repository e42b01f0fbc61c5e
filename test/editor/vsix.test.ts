// The packaged .vsix the editor tests install (built by prepare.ts with `npm run package`) stays small and
// clean: only the bundle, the manifest and its translations, the README, licence and changelog, and the
// media package.json refers to; no sources, tests, source maps or node_modules; every media file the
// manifest names is in it; activation is lazy (no "*"). The archive is read as it is, entry by entry.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.ts';
import { inflateRawSync } from 'node:zlib';
import { requireVsix } from './session.ts';

type Entry = { name: string; size: number; read(): Buffer };

/** The entries of a zip file, from its central directory (APPNOTE 4.3.12, 4.3.16). */
function zipEntries(zip: Buffer): Entry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip file: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const read = () => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + compressed);
      return method === 0 ? Buffer.from(data) : inflateRawSync(data);
    };
    entries.push({ name, size, read });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** What may be in the package, each entry matching one of these. */
const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/(package\.json|package\.nls(\.[a-z-]+)?\.json|readme\.md|changelog\.md|LICENSE\.txt)$/,
  /^extension\/dist\/extension\.cjs$/,
  // Image scaling's worker thread (src/extension/images/offThread.ts).
  /^extension\/dist\/thumbnailWorker\.cjs$/,
  // The web console the local gateway serves: its manifest and its two hashed files.
  /^extension\/dist\/console\/(manifest\.json|app-\w+\.(js|css))$/,
  /^extension\/l10n\/bundle\.l10n\.[a-z-]+\.json$/,
  /^extension\/media\/[\w/.-]+\.(png|svg|css|md)$/,
];
/** Upper bound of the package's size: 432 KB when this test was written (the bundle with the local gateway in it). */
const MAX_VSIX_BYTES = 1024 * 1024;

/** Every `media/...` path a manifest value names (icons, walkthrough steps, views). */
function mediaPaths(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    const path = /^\.?\/?(media\/[\w/.-]+)$/.exec(value)?.[1];
    if (path) found.add(path);
  } else if (Array.isArray(value)) for (const v of value) mediaPaths(v, found);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) mediaPaths(v, found);
  return found;
}

/** Every media file the extension's code opens (`joinPath(extensionUri, 'media', 'usage.css')`). */
function mediaReadByCode(): string[] {
  const dir = join(repoRoot, 'src', 'extension');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const text = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
  return [...text.matchAll(/'media', '([\w.-]+)'\)/g)].map((m) => `media/${m[1]}`);
}

describe('the packaged .vsix', () => {
  const vsix = requireVsix();
  const entries = zipEntries(readFileSync(vsix));
  const names = entries.map((e) => e.name);
  const entry = (name: string) => {
    const found = entries.find((e) => e.name === name);
    if (!found) throw new Error(`${name} is not in the package: ${names.join(', ')}`);
    return found;
  };

  it('is small, and holds only what it is allowed to (no sources, tests, maps or node_modules)', () => {
    const bytes = statSync(vsix).size;
    console.log(`      [vsix] ${names.length} files, ${(bytes / 1024).toFixed(0)} KB packed, ${(entries.reduce((n, e) => n + e.size, 0) / 1024).toFixed(0)} KB unpacked`);
    assert.ok(bytes <= MAX_VSIX_BYTES, `${bytes} bytes`);
    const unexpected = names.filter((name) => !ALLOWED.some((rule) => rule.test(name)));
    assert.deepEqual(unexpected, []);
    assert.deepEqual(names.filter((name) => /\.(ts|map|cts|mts)$|(^|\/)(src|test|node_modules|bench|\.cache|\.model-gateway)\//.test(name)), []);
  });

  it('the bundle is the production one: minified, no source map, no test code', () => {
    const bundle = entry('extension/dist/extension.cjs').read().toString('utf8');
    // (Checked with includes: a failed match would print the whole bundle.)
    assert.ok(!bundle.includes('sourceMappingURL'), 'the bundle points at a source map');
    assert.ok(!bundle.includes('require("mocha")') && !bundle.includes('require("node:test")'), 'the bundle holds test code');
    // Minified: long lines (the line breaks left are inside template literals, such as the console's HTML).
    const lines = bundle.split('\n').length;
    assert.ok(bundle.length / lines > 200, `${lines} lines for ${bundle.length} characters: not minified`);
  });

  it('its manifest activates lazily, and every media file it or the code names is packaged', () => {
    const manifest = JSON.parse(entry('extension/package.json').read().toString('utf8')) as { main: string; activationEvents?: string[] };
    assert.equal(manifest.main, './dist/extension.cjs');
    assert.ok(!(manifest.activationEvents ?? []).includes('*'), JSON.stringify(manifest.activationEvents));
    const byCode = mediaReadByCode();
    assert.ok(byCode.includes('media/usage.css'), `the Usage view's style is found in the code: ${byCode.join(', ')}`);
    const media = [...mediaPaths(manifest), ...byCode];
    assert.deepEqual(media.filter((path) => !names.includes(`extension/${path}`)), []);
    // Every bundle of translations the manifest and the code read.
    for (const name of ['extension/package.nls.json', 'extension/package.nls.zh-cn.json', 'extension/l10n/bundle.l10n.zh-cn.json']) entry(name);
    // The worker the image previews and alt text are scaled on: without it they would be scaled on the extension host.
    assert.ok(entry('extension/dist/thumbnailWorker.cjs').size > 10_000);
  });

  it('carries the web console the local gateway serves: the two files its manifest names', () => {
    const manifest = JSON.parse(entry('extension/dist/console/manifest.json').read().toString('utf8')) as { js: string; css: string };
    for (const name of [manifest.js, manifest.css]) assert.ok(entry(`extension/dist/console/${name}`).size > 1000, name);
  });
});

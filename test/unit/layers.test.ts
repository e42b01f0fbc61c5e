// The architecture's arrows (DESIGN.md), enforced: a wrong import fails CI instead of review.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  const dynamic = [...text.matchAll(/(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
  return [...specifiers, ...dynamic];
}

/** The top-level layer (contract, client, gateway, extension) a path under src/ belongs to. */
function layerOf(path: string): string {
  return relative(src, path).split(sep)[0]!;
}

const allowed: Record<string, string[]> = {
  contract: ['contract'],
  wire: ['contract', 'wire'],
  client: ['contract', 'wire', 'client'],
  gateway: ['contract', 'wire', 'gateway'],
  extension: ['contract', 'wire', 'client', 'extension', 'gateway'],
};

describe('layers', () => {
  const files = [...sourceFiles(src)];

  it('finds the source files', () => assert.ok(files.length > 0));

  for (const file of files) {
    const layer = layerOf(file);
    const name = relative(root, file);
    it(`${name} imports only what its layer may`, () => {
      for (const spec of importsOf(file)) {
        if (spec === 'vscode') {
          assert.equal(layer, 'extension', `${name} imports vscode; only src/extension may`);
          continue;
        }
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec);
        const targetLayer = layerOf(target);
        assert.ok(allowed[layer]?.includes(targetLayer), `${name} (${layer}) must not import ${spec} (${targetLayer})`);
        if (layer === 'extension' && targetLayer === 'gateway') {
          assert.equal(relative(src, target), join('gateway', 'server.ts'), `${name}: the extension reaches the gateway only through src/gateway/server.ts`);
        }
      }
    });
  }
});

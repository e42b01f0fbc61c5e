// The architecture's arrows (DESIGN.md, test/support/layers.ts), enforced: a wrong import fails CI instead of review.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { importViolation } from '../support/layers.ts';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

function importsOf(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  const dynamic = [...text.matchAll(/(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
  return [...specifiers, ...dynamic];
}

describe('layers', () => {
  const files = [...sourceFiles(src)];

  it('finds the source files', () => assert.ok(files.length > 0));

  describe('the checker itself', () => {
    const at = (path: string) => join(src, path);
    it('reports a store -> relay import and a relay -> routes import inside the gateway', () => {
      assert.match(importViolation(src, at('gateway/store/types.ts'), '../relay/types.ts') ?? '', /gateway\/store.*gateway\/relay/);
      assert.match(importViolation(src, at('gateway/relay/index.ts'), '../routes/chat.ts') ?? '', /gateway\/relay.*gateway\/routes/);
    });
    it('reports crossings between the top layers and a vscode import outside the extension', () => {
      assert.ok(importViolation(src, at('client/client.ts'), '../gateway/server.ts'));
      assert.ok(importViolation(src, at('gateway/app.ts'), '../client/index.ts'));
      assert.ok(importViolation(src, at('extension/chat/participant.ts'), '../../gateway/app.ts'));
      assert.ok(importViolation(src, at('gateway/app.ts'), 'vscode'));
      assert.ok(importViolation(src, at('console/ConsoleApp.tsx'), '../gateway/store/types.ts'), 'the console reaches the gateway over HTTP only');
    });
    it('allows the declared arrows', () => {
      assert.equal(importViolation(src, at('gateway/providers/openai/attempt.ts'), '../../relay/attempt.ts'), null);
      assert.equal(importViolation(src, at('gateway/server.ts'), './relay/index.ts'), null);
      assert.equal(importViolation(src, at('extension/extension.ts'), '../gateway/server.ts'), null);
      assert.equal(importViolation(src, at('client/sse.ts'), '../wire/sse.ts'), null);
    });
  });

  for (const file of files) {
    const name = relative(root, file);
    it(`${name} imports only what its layer may`, () => {
      const problems = importsOf(readFileSync(file, 'utf8'))
        .map((spec) => importViolation(src, file, spec))
        .filter((p) => p !== null);
      assert.deepEqual(problems, []);
    });
  }
});

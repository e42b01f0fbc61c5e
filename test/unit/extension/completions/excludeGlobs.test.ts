import assert from 'node:assert/strict';
import { globToRegExp, isExcluded, matchesAny } from '../../../../src/extension/completions/excludeGlobs.ts';

describe('completion exclude globs', () => {
  it('keeps secrets files out by default, wherever they are', () => {
    for (const path of ['/w/.env', '/w/app/.env.local', 'C:\\w\\.env.production', '/w/certs/server.pem', '/w/tls/server.KEY', '/home/u/.ssh/id_rsa', '/home/u/.ssh/id_rsa.pub', '/w/config/secrets.json', '/w/.npmrc', '/home/u/.aws/credentials', '/w/db-credentials.yaml']) {
      assert.equal(isExcluded(path, []), true, path);
    }
  });

  it('lets ordinary source files through', () => {
    for (const path of ['/w/src/env.ts', '/w/src/keyboard.ts', '/w/README.md', '/w/src/environment/index.ts', '/w/monkey.py', '/w/.envrc.example.txt']) {
      assert.equal(isExcluded(path, []), false, path);
    }
  });

  it('adds the user patterns: a bare name matches in any folder, a path pattern matches from any folder', () => {
    assert.equal(isExcluded('/w/src/private/notes.ts', ['private/**']), true);
    assert.equal(isExcluded('/w/src/public/notes.ts', ['private/**']), false);
    assert.equal(isExcluded('/w/a/b/Makefile.local', ['*.local']), true);
    assert.equal(isExcluded('/w/a/b/prod.tfvars', ['**/*.{tfvars,tfstate}']), true);
    assert.equal(isExcluded('/w/a/b/prod.tf', ['**/*.{tfvars,tfstate}']), false);
  });

  it('translates globs: * stays in one folder, ** crosses folders, ? is one character, dots are literal', () => {
    assert.equal(globToRegExp('src/*.ts').test('src/a.ts'), true);
    assert.equal(globToRegExp('src/*.ts').test('src/a/b.ts'), false);
    assert.equal(globToRegExp('src/**/*.ts').test('src/a/b.ts'), true);
    assert.equal(globToRegExp('src/**/*.ts').test('src/b.ts'), true);
    assert.equal(globToRegExp('a?c').test('abc'), true);
    assert.equal(globToRegExp('a.c').test('abc'), false);
    assert.equal(globToRegExp('[ab].txt').test('b.txt'), true);
  });

  it('ignores blank patterns instead of matching everything', () => {
    assert.equal(matchesAny('/w/src/a.ts', ['', '  ']), false);
  });
});

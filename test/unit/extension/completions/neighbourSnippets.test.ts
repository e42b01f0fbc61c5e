import assert from 'node:assert/strict';
import { bestSnippet, identifiersOf, MAX_SEARCHED_CHARS, REFERENCE_LINES, referenceIdentifiers, SNIPPET_LINES, snippetIndex } from '../../../../src/extension/completions/neighbourSnippets.ts';

const filler = (from: number, count: number) => Array.from({ length: count }, (_, i) => `const fillerValue${from + i} = computeFiller(${from + i});`);

describe('completions: the part of an open file sent beside the cursor', () => {
  it('finds the window most like the code before the cursor, deep in the file', () => {
    const lines = [...filler(0, 200), 'export function parseInvoiceTotal(invoice: Invoice, taxRate: number) {', '  return invoice.subtotal * (1 + taxRate);', '}', ...filler(200, 200)];
    const found = bestSnippet(snippetIndex(lines.join('\n')), identifiersOf('const total = parseInvoiceTotal(invoice, taxRate'));
    assert.ok(found, 'a window shares the names');
    assert.ok(found.text.includes('export function parseInvoiceTotal(invoice: Invoice, taxRate: number) {\n  return invoice.subtotal'), found.text);
    assert.equal(found.text.split('\n').length, SNIPPET_LINES);
    assert.ok(found.startLine <= 200 && found.startLine + SNIPPET_LINES > 202, `window from line ${found.startLine}`);
  });

  it('reaches the file\'s last lines, and takes a short file whole', () => {
    const lines = [...filler(0, 95), 'function closingHelper(shutdownSignal) {', '  return shutdownSignal;', '}'];
    const found = bestSnippet(snippetIndex(lines.join('\n')), identifiersOf('closingHelper(shutdownSignal)'));
    assert.ok(found?.text.endsWith('function closingHelper(shutdownSignal) {\n  return shutdownSignal;\n}'), found?.text);
    const short = bestSnippet(snippetIndex('const a = sharedName;\nconst b = 2;'), identifiersOf('sharedName'));
    assert.equal(short?.text, 'const a = sharedName;\nconst b = 2;');
  });

  it('finds nothing when no name is shared: keywords and short names do not count', () => {
    const index = snippetIndex(filler(0, 100).join('\n'));
    assert.ok(bestSnippet(index, identifiersOf('computeFiller(')), 'a shared name finds a window');
    assert.equal(bestSnippet(index, identifiersOf('const x = function () { return await new Promise(); }')), null);
    assert.equal(bestSnippet(index, identifiersOf('if (a && b) { return true; }')), null);
    assert.deepEqual([...identifiersOf('const x = function fooBar() { return this.baz_qux; }')], ['fooBar', 'baz_qux']);
  });

  it('prefers the window where the shared names are a larger part of it (Jaccard), the first of equals', () => {
    const text = ['alphaName betaName gammaName deltaName epsilonName zetaName etaName thetaName', ...Array(45).fill(''), 'alphaName betaName', ...Array(45).fill('')].join('\n');
    // The first window (lines 0-39) holds the two names among eight (2/8); the ones from line 10 to 40 hold line 46's
    // two alone (2/2), and the first of those is taken.
    const found = bestSnippet(snippetIndex(text), identifiersOf('alphaName betaName'));
    assert.equal(found?.startLine, 10);
    assert.equal(found?.score, 1);
    assert.doesNotMatch(found!.text, /gammaName/);
  });

  it('searches only the start of a very long file', () => {
    const long = `${'// padding line that is long enough to fill the searched part quickly\n'.repeat(Math.ceil(MAX_SEARCHED_CHARS / 70) + 10)}function farAwayName() {}\n`;
    assert.equal(bestSnippet(snippetIndex(long), identifiersOf('farAwayName')), null);
  });

  it('compares with the last lines before the cursor only', () => {
    const before = ['function oldName() {}', ...Array(REFERENCE_LINES).fill('recentName();')].join('\n');
    const words = referenceIdentifiers(`${before}\nafterCursorName();`, before.length);
    assert.deepEqual([...words], ['recentName']);
    assert.deepEqual([...referenceIdentifiers('firstName();\nsecondName(', 24)], ['firstName', 'secondName']);
  });
});

// @gateway /codebase: how files become chunks, how the index keeps and finds them, how hits become excerpts.
import assert from 'node:assert/strict';
import { CHUNK_LINES, MAX_CHUNK_CHARS, chunkText, looksLikeText } from '../../../src/extension/codebase/chunks.ts';
import { IndexData } from '../../../src/extension/codebase/indexData.ts';
import { nearest, normalize } from '../../../src/extension/codebase/vectors.ts';
import { excerptsOf } from '../../../src/extension/codebase/excerpts.ts';
import { MAX_CHARS_PER_REQUEST, MAX_INPUTS_PER_REQUEST, batchIsFull } from '../../../src/extension/codebase/batches.ts';
import { indexLine } from '../../../src/extension/codebase/indexLine.ts';
import { english } from '../../../src/extension/translate.ts';
import { toolText } from '../../../src/extension/codebase/toolText.ts';

const unit = (...values: number[]) => normalize(Float32Array.from(values));

describe('codebase: chunks', () => {
  it('cuts a file into overlapping windows of lines, each headed by its path, the last reaching the end', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const chunks = chunkText('src/a.ts', text);
    assert.deepEqual(chunks.map((c) => [c.startLine, c.endLine]), [[0, 39], [32, 71], [64, 99]]);
    assert.ok(chunks.every((c) => c.endLine - c.startLine + 1 <= CHUNK_LINES));
    assert.equal(chunks[1]!.text.split('\n')[0], 'src/a.ts');
    assert.equal(chunks[1]!.text.split('\n')[1], 'line 32');
    assert.equal(chunks[2]!.text.split('\n').at(-1), 'line 99');
  });

  it('gives a short file one chunk, skips windows without a word, and cuts minified lines', () => {
    assert.deepEqual(chunkText('a.ts', 'const a = 1;\r\nconst b = 2;').map((c) => [c.startLine, c.endLine, c.text]), [[0, 1, 'a.ts\nconst a = 1;\nconst b = 2;']]);
    assert.deepEqual(chunkText('b.ts', '\n\n}\n  }\n'), []);
    assert.deepEqual(chunkText('c.ts', 'one\ntwo\n').map((c) => [c.startLine, c.endLine]), [[0, 1]], 'a final line break starts no line');
    const [long] = chunkText('min.js', 'x'.repeat(50_000));
    assert.ok(long!.text.length <= MAX_CHUNK_CHARS && long!.text.endsWith('…'), `${long!.text.length}`);
    const wide = chunkText('w.js', Array.from({ length: 30 }, () => 'y'.repeat(1_000)).join('\n'));
    assert.ok(wide.every((c) => c.text.length <= MAX_CHUNK_CHARS));
  });

  it('tells text from binary by a NUL in the first 8 KB', () => {
    assert.equal(looksLikeText(new TextEncoder().encode('plain text ü')), true);
    assert.equal(looksLikeText(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1])), false);
    const late = new Uint8Array(10_000).fill(65);
    late[9_000] = 0;
    assert.equal(looksLikeText(late), true);
  });
});

describe('codebase: vectors', () => {
  it('finds the k rows nearest by cosine, best first', () => {
    const rows = new Float32Array([...unit(1, 0), ...unit(0, 1), ...unit(1, 1), ...unit(-1, 0)]);
    assert.deepEqual(nearest(unit(1, 0.1), rows, 2).map((s) => s.row), [0, 2]);
    assert.deepEqual(nearest(unit(0, 1), rows, 10).map((s) => s.row), [1, 2, 0, 3]);
    assert.deepEqual(nearest(unit(1, 0), rows, 0), []);
    assert.ok(Math.abs(nearest(unit(1, 0), rows, 1)[0]!.score - 1) < 1e-6);
  });

  it('normalizes to unit length and leaves a zero vector alone', () => {
    assert.deepEqual([...normalize(Float32Array.from([3, 4]))].map((v) => Math.round(v * 100) / 100), [0.6, 0.8]);
    assert.deepEqual([...normalize(new Float32Array(3))], [0, 0, 0]);
  });
});

describe('codebase: the index', () => {
  const entry = (mtime: number, spans: Array<[number, number]>, vectors: number[][]) => ({
    mtime,
    size: 10,
    spans: spans.map(([start, end]) => ({ start, end })),
    vectors: Float32Array.from(vectors.flatMap((v) => [...unit(...v)])),
  });

  it('searches every file it holds, and forgets a file deleted or set again', () => {
    const index = new IndexData('emb', 0);
    index.set('file:///a.ts', entry(1, [[0, 39], [32, 60]], [[1, 0], [0.7, 0.7]]));
    index.set('file:///b.ts', entry(1, [[0, 10]], [[0, 1]]));
    assert.equal(index.dimensions, 2);
    assert.equal(index.chunkCount, 3);
    assert.deepEqual(index.search(unit(0, 1), 2).map((h) => [h.file, h.span.start]), [['file:///b.ts', 0], ['file:///a.ts', 32]]);
    index.delete('file:///b.ts');
    assert.deepEqual(index.search(unit(0, 1), 1).map((h) => h.file), ['file:///a.ts']);
    index.set('file:///a.ts', entry(2, [[5, 9]], [[0, 1]]));
    assert.deepEqual(index.search(unit(0, 1), 5).map((h) => [h.file, h.span.start]), [['file:///a.ts', 5]]);
    assert.deepEqual(index.search(unit(0, 1, 0), 5), [], 'a query of another length finds nothing');
    assert.throws(() => index.set('file:///c.ts', entry(1, [[0, 1]], [[1, 0, 0]])), /3 numbers for 1 chunks of 2/);
  });

  it('reads back what it saved, and refuses files it did not write whole', () => {
    const index = new IndexData('emb', 0);
    index.set('file:///a.ts', entry(7, [[0, 39], [32, 60]], [[1, 0], [0.6, 0.8]]));
    index.set('file:///empty.ts', { mtime: 3, size: 0, spans: [], vectors: new Float32Array() });
    const { meta, vectors } = index.serialize();
    const back = IndexData.deserialize(meta, vectors)!;
    assert.equal(back.model, 'emb');
    assert.deepEqual([...back.files.keys()], ['file:///a.ts', 'file:///empty.ts']);
    assert.deepEqual(back.files.get('file:///a.ts')!.spans, [{ start: 0, end: 39 }, { start: 32, end: 60 }]);
    assert.deepEqual(back.search(unit(0.6, 0.8), 1).map((h) => h.span.start), [32]);
    // A Buffer from Node's pool is not 4-byte aligned: the vectors are copied, not viewed.
    const pooled = Buffer.concat([Buffer.from([1]), Buffer.from(vectors)]).subarray(1);
    assert.ok(IndexData.deserialize(meta, pooled));
    assert.equal(IndexData.deserialize(meta, vectors.subarray(0, 8)), null, 'fewer vectors than the spans name');
    assert.equal(IndexData.deserialize(meta, new Uint8Array([...vectors, 0, 0, 0, 0])), null, 'more');
    assert.equal(IndexData.deserialize('{"version":0}', vectors), null);
    assert.equal(IndexData.deserialize('not json', vectors), null);
  });
});

describe('codebase: excerpts', () => {
  const hit = (file: string, start: number, end: number, score: number) => ({ file, span: { start, end }, score });

  it('joins overlapping or touching chunks of a file, best first, and keeps at most the asked number', () => {
    const excerpts = excerptsOf([hit('a', 32, 71, 0.5), hit('b', 0, 39, 0.9), hit('a', 0, 39, 0.8), hit('a', 72, 90, 0.4), hit('a', 200, 239, 0.3)], 2);
    assert.deepEqual(excerpts.map((e) => [e.file, e.start, e.end, e.score]), [['b', 0, 39, 0.9], ['a', 0, 90, 0.8]]);
  });
});

describe('codebase: batches and the index line', () => {
  it('fills a request up to its inputs or characters, and never refuses a first input', () => {
    assert.equal(batchIsFull(0, 0, MAX_CHARS_PER_REQUEST * 2), false);
    assert.equal(batchIsFull(1, 10, MAX_CHARS_PER_REQUEST), true);
    assert.equal(batchIsFull(MAX_INPUTS_PER_REQUEST - 1, 10, 10), false);
    assert.equal(batchIsFull(MAX_INPUTS_PER_REQUEST, 10, 10), true);
  });

  it('says what was indexed and what it cost, and nothing when nothing changed', () => {
    const report = { files: 12, chunks: 30, embeddedFiles: 3, removedFiles: 0, tokens: 1234, costUsd: 0.000025, capped: false };
    assert.equal(indexLine(report, 'emb', english), 'Indexed 3 changed files with emb (1,234 tokens, $0.000025); the index holds 12 files.');
    assert.equal(indexLine({ ...report, costUsd: null }, 'emb', english), 'Indexed 3 changed files with emb (1,234 tokens); the index holds 12 files.');
    assert.equal(indexLine({ ...report, embeddedFiles: 0 }, 'emb', english), null);
    assert.match(indexLine({ ...report, embeddedFiles: 0, capped: true }, 'emb', english)!, /^The index is full \(5,000 files or 30,000 chunks at most\)/);
  });
});

describe('codebase: the tool\'s answer', () => {
  it('heads each excerpt with its path and lines, in a fence longer than any inside it', () => {
    const text = toolText('retries', 'emb', [{ label: 'README.md:1-3', text: 'Run:\n```sh\nnpm test\n```' }, { label: 'a.ts:4-9', text: 'retry()' }]);
    assert.equal(text, 'The 2 excerpts of the workspace\'s code nearest to "retries" (embedding model emb), best first:\n\nREADME.md:1-3\n````\nRun:\n```sh\nnpm test\n```\n````\n\na.ts:4-9\n```\nretry()\n```');
    assert.equal(toolText('x', 'emb', []), 'No code of the workspace was found for "x" (searched with the embedding model emb).');
  });
});

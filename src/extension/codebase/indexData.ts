/**
 * What the codebase index holds: per file, the stat it was read at, its chunks' line spans and their
 * vectors; all made with one embedding model. Saved as two files (the spans as JSON, the vectors as raw
 * float32), read back whole, searched in memory. Pure: no VS Code, no disk.
 */
import { nearest } from './vectors.ts';

export const INDEX_VERSION = 1;

export interface Span {
  /** 0-based lines, inclusive. */
  readonly start: number;
  readonly end: number;
}

export interface FileEntry {
  readonly mtime: number;
  readonly size: number;
  readonly spans: readonly Span[];
  /** spans.length unit vectors of the index's dimensions, end to end. */
  readonly vectors: Float32Array;
}

export interface Hit {
  readonly file: string;
  readonly span: Span;
  readonly score: number;
}

interface SavedMeta {
  readonly version: number;
  readonly model: string;
  readonly dimensions: number;
  /** [file, mtime, size, [start, end, start, end, ...]] */
  readonly files: ReadonlyArray<readonly [string, number, number, readonly number[]]>;
}

export class IndexData {
  readonly files = new Map<string, FileEntry>();
  #matrix: { rows: Float32Array; owners: Array<{ file: string; span: Span }> } | null = null;

  readonly model: string;
  /** The length of every vector; 0 until the first is set. */
  dimensions: number;

  constructor(model: string, dimensions: number) {
    this.model = model;
    this.dimensions = dimensions;
  }

  get chunkCount(): number {
    let n = 0;
    for (const entry of this.files.values()) n += entry.spans.length;
    return n;
  }

  set(file: string, entry: FileEntry): void {
    if (entry.spans.length > 0 && this.dimensions === 0) this.dimensions = entry.vectors.length / entry.spans.length;
    if (entry.vectors.length !== entry.spans.length * this.dimensions) throw new Error(`${file}: ${entry.vectors.length} numbers for ${entry.spans.length} chunks of ${this.dimensions}`);
    this.files.set(file, entry);
    this.#matrix = null;
  }

  delete(file: string): void {
    if (this.files.delete(file)) this.#matrix = null;
  }

  /** The `k` chunks nearest to the unit vector `query`, best first; none when its length is not the index's. */
  search(query: Float32Array, k: number): Hit[] {
    if (query.length !== this.dimensions) return [];
    const matrix = (this.#matrix ??= this.#build());
    return nearest(query, matrix.rows, k).map(({ row, score }) => ({ ...matrix.owners[row]!, score }));
  }

  #build(): { rows: Float32Array; owners: Array<{ file: string; span: Span }> } {
    const rows = new Float32Array(this.chunkCount * this.dimensions);
    const owners: Array<{ file: string; span: Span }> = [];
    for (const [file, entry] of this.files) {
      rows.set(entry.vectors, owners.length * this.dimensions);
      for (const span of entry.spans) owners.push({ file, span });
    }
    return { rows, owners };
  }

  /** The two files it is saved as. */
  serialize(): { meta: string; vectors: Uint8Array } {
    const files: SavedMeta['files'][number][] = [];
    const rows = new Float32Array(this.chunkCount * this.dimensions);
    let at = 0;
    for (const [file, entry] of this.files) {
      files.push([file, entry.mtime, entry.size, entry.spans.flatMap((s) => [s.start, s.end])]);
      rows.set(entry.vectors, at);
      at += entry.vectors.length;
    }
    const meta: SavedMeta = { version: INDEX_VERSION, model: this.model, dimensions: this.dimensions, files };
    return { meta: JSON.stringify(meta), vectors: new Uint8Array(rows.buffer) };
  }

  /** An index read back, or null when the files are not one this version wrote whole (then it is built again). */
  static deserialize(meta: string, vectors: Uint8Array): IndexData | null {
    let saved: SavedMeta;
    try {
      saved = JSON.parse(meta) as SavedMeta;
    } catch {
      return null;
    }
    if (saved?.version !== INDEX_VERSION || typeof saved.model !== 'string' || !Number.isInteger(saved.dimensions) || !Array.isArray(saved.files)) return null;
    const numbers = new Float32Array(vectors.byteLength >> 2);
    new Uint8Array(numbers.buffer).set(vectors.subarray(0, numbers.length * 4));
    const index = new IndexData(saved.model, saved.dimensions);
    let at = 0;
    for (const [file, mtime, size, flat] of saved.files) {
      const spans: Span[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) spans.push({ start: flat[i]!, end: flat[i + 1]! });
      const length = spans.length * saved.dimensions;
      if (at + length > numbers.length) return null;
      index.files.set(file, { mtime, size, spans, vectors: numbers.slice(at, at + length) });
      at += length;
    }
    return at === numbers.length ? index : null;
  }
}

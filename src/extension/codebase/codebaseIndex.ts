/**
 * The workspace's codebase index: brought up to date before each search (only files whose size or time
 * changed are read and embedded again, through the gateway's embedding model), kept in the extension's
 * workspace storage, searched in memory. One refresh at a time; a cancelled or failed one keeps what it
 * finished.
 */
import * as vscode from 'vscode';
import type { GatewayClient } from '../../client/index.ts';
import { batchIsFull } from './batches.ts';
import { chunkText, looksLikeText } from './chunks.ts';
import { IndexData, type Hit, type Span } from './indexData.ts';
import { normalize } from './vectors.ts';
import { MAX_CHUNKS, MAX_FILE_BYTES } from './limits.ts';
import { workspaceFiles } from './workspaceFiles.ts';

const META_FILE = 'codebase-index.json';
const VECTORS_FILE = 'codebase-vectors.bin';
/** Files stat'ed at once. */
const STAT_PARALLEL = 32;
/** Saved along the way every this many requests, so that a cancelled first index is not all lost. */
const SAVE_EVERY_REQUESTS = 20;

export interface RefreshReport {
  /** Files in the index, and their chunks. */
  readonly files: number;
  readonly chunks: number;
  /** Files read and embedded this time, and those dropped (deleted, or now too large). */
  readonly embeddedFiles: number;
  readonly removedFiles: number;
  readonly tokens: number;
  /** What embedding cost in USD, when the gateway said so for every request. */
  readonly costUsd: number | null;
  /** The workspace has more files than the index takes (MAX_FILES, MAX_CHUNKS): some are left out. */
  readonly capped: boolean;
}

export interface RefreshProgress {
  (done: number, total: number): void;
}

interface Pending {
  readonly file: string;
  readonly mtime: number;
  readonly size: number;
  readonly spans: Span[];
  readonly vectors: Array<Float32Array | undefined>;
  left: number;
}

export class CodebaseIndex {
  #data: IndexData | null = null;
  #running: { readonly model: string; readonly report: Promise<RefreshReport> } | null = null;

  readonly #storage: vscode.Uri;
  readonly #log: vscode.LogOutputChannel;
  readonly #neverSent: () => readonly string[];
  readonly #maxChunks: number;

  /**
   * `neverSent`: the user's globs of files whose text must not leave the editor (modelGateway.completions.exclude);
   * `maxChunks`: the most chunks it holds (MAX_CHUNKS; smaller in tests).
   */
  constructor(storage: vscode.Uri, log: vscode.LogOutputChannel, neverSent: () => readonly string[], maxChunks = MAX_CHUNKS) {
    this.#storage = storage;
    this.#log = log;
    this.#neverSent = neverSent;
    this.#maxChunks = maxChunks;
  }

  /**
   * Brings the index up to date with `model`, one run at a time. A call while a run for the same model goes on
   * shares it (its progress is shown by the first caller); one for another model, or one whose shared run was
   * cancelled by its first caller, waits for it to end and then runs its own.
   */
  async refresh(client: GatewayClient, model: string, progress: RefreshProgress, token: vscode.CancellationToken): Promise<RefreshReport> {
    for (;;) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const running = this.#running;
      if (!running) {
        const run = { model, report: this.#refresh(client, model, progress, token).finally(() => this.#running === run && (this.#running = null)) };
        this.#running = run;
        return run.report;
      }
      const ended = await untilCancelled(running.report.then((report) => ({ report }), (error: unknown) => ({ error })), token);
      if (running.model !== model) continue;
      if ('report' in ended) return ended.report;
      if (!(ended.error instanceof vscode.CancellationError)) throw ended.error;
    }
  }

  /** The `k` chunks nearest to `question`, embedded with the index's model. */
  async search(client: GatewayClient, question: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    const data = this.#data;
    if (!data || data.files.size === 0) return [];
    const { vectors } = await client.embeddings({ model: data.model, input: [question] }, { signal });
    return data.search(normalize(vectors[0]!), k);
  }

  async clear(): Promise<void> {
    this.#data = null;
    for (const name of [META_FILE, VECTORS_FILE]) await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.#storage, name)).then(undefined, () => undefined);
  }

  async #load(model: string): Promise<IndexData> {
    if (this.#data?.model === model) return this.#data;
    try {
      const [meta, vectors] = await Promise.all([META_FILE, VECTORS_FILE].map((name) => vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.#storage, name))));
      const read = IndexData.deserialize(new TextDecoder().decode(meta), vectors!);
      if (read?.model === model) return (this.#data = read);
      this.#log.info(`Codebase index: ${read ? `made with ${read.model}, built again with ${model}` : 'unreadable, built again'}.`);
    } catch {
      // None saved yet.
    }
    return (this.#data = new IndexData(model, 0));
  }

  async #save(data: IndexData): Promise<void> {
    const { meta, vectors } = data.serialize();
    await vscode.workspace.fs.createDirectory(this.#storage);
    // Vectors first: a meta that names more vectors than the file holds is refused on reading, and built again.
    for (const [name, bytes] of [[VECTORS_FILE, vectors], [META_FILE, new TextEncoder().encode(meta)]] as const) {
      const temp = vscode.Uri.joinPath(this.#storage, `${name}.tmp`);
      await vscode.workspace.fs.writeFile(temp, bytes);
      await vscode.workspace.fs.rename(temp, vscode.Uri.joinPath(this.#storage, name), { overwrite: true });
    }
  }

  async #refresh(client: GatewayClient, model: string, progress: RefreshProgress, token: vscode.CancellationToken): Promise<RefreshReport> {
    const data = await this.#load(model);
    const found = await workspaceFiles(this.#neverSent(), token);
    // A cancelled search returns part of the files: the rest must not be taken for deleted.
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    let capped = found.capped;
    const { uris } = found;
    const stats = await statAll(uris);
    const present = new Set<string>();
    const changed: Array<{ uri: vscode.Uri; mtime: number; size: number }> = [];
    let removedFiles = 0;
    uris.forEach((uri, i) => {
      const stat = stats[i];
      const file = uri.toString();
      if (!stat || stat.type & vscode.FileType.Directory || stat.size > MAX_FILE_BYTES) return;
      present.add(file);
      const known = data.files.get(file);
      if (!known || known.mtime !== stat.mtime || known.size !== stat.size) changed.push({ uri, mtime: stat.mtime, size: stat.size });
    });
    for (const file of [...data.files.keys()]) {
      if (!present.has(file)) {
        data.delete(file);
        removedFiles++;
      }
    }

    let tokens = 0;
    let cost: number | null = 0;
    let requests = 0;
    let done = 0;
    let batch: Array<{ pending: Pending; chunk: number; text: string }> = [];
    let batchChars = 0;
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const sent = batch;
      batch = [];
      batchChars = 0;
      const answer = await client.embeddings({ model, input: sent.map((b) => b.text) }, { signal: abort.signal });
      tokens += answer.promptTokens ?? 0;
      cost = cost === null || answer.costUsd === null ? null : cost + answer.costUsd;
      sent.forEach(({ pending, chunk }, i) => {
        pending.vectors[chunk] = normalize(answer.vectors[i]!);
        if (--pending.left === 0) finish(data, pending);
      });
      if (++requests % SAVE_EVERY_REQUESTS === 0) await this.#save(data);
    };
    progress(0, changed.length);
    /** The index's chunks once the files read so far are in: past the most it holds, further files are left out. */
    let planned = data.chunkCount;
    try {
      for (const { uri, mtime, size } of changed) {
        if (token.isCancellationRequested) break;
        const chunks = await chunksOf(uri);
        planned -= data.files.get(uri.toString())?.spans.length ?? 0;
        if (planned + chunks.length > this.#maxChunks) {
          data.delete(uri.toString());
          capped = true;
          progress(++done, changed.length);
          continue;
        }
        planned += chunks.length;
        const pending: Pending = { file: uri.toString(), mtime, size, spans: chunks.map((c) => ({ start: c.startLine, end: c.endLine })), vectors: new Array(chunks.length), left: chunks.length };
        if (chunks.length === 0) finish(data, pending);
        for (const [i, chunk] of chunks.entries()) {
          if (batchIsFull(batch.length, batchChars, chunk.text.length)) await flush();
          batch.push({ pending, chunk: i, text: chunk.text });
          batchChars += chunk.text.length;
        }
        progress(++done, changed.length);
      }
      if (!token.isCancellationRequested) await flush();
    } finally {
      cancelled.dispose();
      if (changed.length > 0 || removedFiles > 0) await this.#save(data).catch((error: unknown) => this.#log.warn(`Codebase index not saved: ${error instanceof Error ? error.message : String(error)}`));
    }
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const embeddedFiles = changed.filter((c) => data.files.get(c.uri.toString())?.mtime === c.mtime).length;
    return { files: data.files.size, chunks: data.chunkCount, embeddedFiles, removedFiles, tokens, costUsd: cost, capped };
  }
}

/** A file's entry, once every chunk of it has its vector. */
function finish(data: IndexData, pending: Pending): void {
  const dimensions = pending.vectors[0]?.length ?? data.dimensions;
  const vectors = new Float32Array(pending.spans.length * dimensions);
  pending.vectors.forEach((v, i) => vectors.set(v!, i * dimensions));
  // A model that changed its vectors' length mid-way (another model behind the same name): start over with it.
  if (pending.spans.length > 0 && data.dimensions !== 0 && dimensions !== data.dimensions) {
    data.files.clear();
    data.dimensions = dimensions;
  }
  data.set(pending.file, { mtime: pending.mtime, size: pending.size, spans: pending.spans, vectors });
}

async function statAll(uris: readonly vscode.Uri[]): Promise<Array<vscode.FileStat | undefined>> {
  const out: Array<vscode.FileStat | undefined> = new Array(uris.length);
  for (let i = 0; i < uris.length; i += STAT_PARALLEL) {
    const part = await Promise.all(uris.slice(i, i + STAT_PARALLEL).map((uri) => vscode.workspace.fs.stat(uri).then((s) => s, () => undefined)));
    part.forEach((s, j) => (out[i + j] = s));
  }
  return out;
}

async function chunksOf(uri: vscode.Uri): Promise<ReturnType<typeof chunkText>> {
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    return [];
  }
  if (!looksLikeText(bytes)) return [];
  return chunkText(vscode.workspace.asRelativePath(uri), new TextDecoder().decode(bytes));
}

/** `promise`, or a CancellationError as soon as `token` is cancelled. */
function untilCancelled<T>(promise: Promise<T>, token: vscode.CancellationToken): Promise<T> {
  return new Promise((resolve, reject) => {
    const listener = token.onCancellationRequested(() => reject(new vscode.CancellationError()));
    promise.then(resolve, reject).finally(() => listener.dispose());
  });
}

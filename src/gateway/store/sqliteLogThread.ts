/**
 * Where the SQLite store's log batches are written: a worker thread with its own connection
 * (sqliteLogWorker.ts), started at the first batch. On two cores the gateway's one thread is the
 * bottleneck at full load, and the batches were a sixth of its work; the thread also keeps their
 * transactions off the event loop. Without the worker's file (a hand-made bundle), or when the thread
 * cannot start, batches are written on the caller's thread as before, said once in the log.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LogThreadAnswer, LogThreadRequest } from './sqliteLogWorker.ts';
import type { WriteBatch } from './types.ts';

/** Its file beside the bundle (dist/sqlite-log-worker.cjs, built by esbuild.js), or beside this source. */
export const LOG_WORKER_FILES = ['sqlite-log-worker.cjs', 'sqliteLogWorker.ts'];

/** The worker's young generation: it only ever holds one batch at a time. */
const YOUNG_GENERATION_MB = 4;

interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

export class SqliteLogThread {
  readonly #file: string;
  readonly #script: string;
  #worker: Worker | null = null;
  /** Set once the thread answered a batch: a thread that dies before ever answering is not restarted. */
  #answered = false;
  #dead = false;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  private constructor(file: string, script: string) {
    this.#file = file;
    this.#script = script;
  }

  /** A thread for the database `file`, or null when its script is not where it belongs. */
  static find(file: string): SqliteLogThread | null {
    const script = LOG_WORKER_FILES.map((name) => join(import.meta.dirname, name)).find((path) => existsSync(path));
    return script ? new SqliteLogThread(file, script) : null;
  }

  /** False once the thread died without ever answering: the caller writes on its own thread from then on. */
  get usable(): boolean {
    return !this.#dead;
  }

  /** Resolves once the batch is committed; rejects with the database's error (the batch is then not applied). */
  write(batch: WriteBatch): Promise<void> {
    const worker = (this.#worker ??= this.#start());
    const id = this.#nextId++;
    // Held open while a batch is out: an awaited answer alone would not keep the process alive for it.
    if (this.#pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, batch } satisfies LogThreadRequest);
    });
  }

  /** Stops the thread (after the batches out, which the log writer's close() has waited for). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }

  #start(): Worker {
    const worker = new Worker(this.#script, { workerData: { file: this.#file }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    worker.unref();
    worker.on('message', ({ id, error }: LogThreadAnswer) => {
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      this.#answered = true;
      if (this.#pending.size === 0) worker.unref();
      if (error === null) pending?.resolve();
      else pending?.reject(new Error(error));
    });
    // An uncaught error in the thread ends it: 'exit' follows.
    let why = '';
    worker.on('error', (error) => (why = `: ${error.message}`));
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#worker = null;
      if (!this.#answered) this.#dead = true;
      // Not known to be committed: the log writer retries them, and a batch that did commit is applied once (its id).
      const error = new Error(`the log writer thread stopped (exit code ${code}${why})`);
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    });
    return worker;
  }
}

/**
 * jpegDataUrl (thumbnail.ts) on a worker thread (thumbnailWorker.ts), so that the extension host is not held while
 * an image is decoded, scaled and encoded. One worker, started on first use and ended when idle for a while; where
 * it cannot start (a runtime without worker threads, the file missing), the same work is done here as before.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { jpegDataUrl, MAX_PREVIEW_CHARS, PREVIEW_TRIES } from './thumbnail.ts';

export interface ScaleJob {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly mime: string;
  readonly tries: ReadonlyArray<readonly [number, number]>;
  readonly maxChars: number;
}

export interface ScaleResult {
  readonly id: number;
  readonly url: string | null;
}

/** An idle worker ends after this: an image is drawn now and then, and a thread holds memory. */
const IDLE_MS = 30_000;
/** Far longer than any image within the size limits takes (a second or two). */
const JOB_TIMEOUT_MS = 60_000;

/** Beside the bundle (dist/thumbnailWorker.cjs, built by esbuild.js), or the source when run from it (tests). */
function workerFile(): string | null {
  for (const name of ['thumbnailWorker.cjs', 'thumbnailWorker.ts']) {
    const file = join(import.meta.dirname, name);
    if (existsSync(file)) return file;
  }
  return null;
}

/** One worker thread and the jobs it has not answered yet. */
class ScalingThread {
  readonly #worker: Worker;
  /**
   * Each job's answer: its URL; null when the worker gave it up (it ran too long, or the worker died with it: the
   * host would stall on it in turn); undefined when the worker never started, so the host does it.
   */
  readonly #waiting = new Map<number, (url: string | null | undefined) => void>();
  #nextId = 0;
  #idle: NodeJS.Timeout | null = null;
  #online = false;
  ended = false;

  constructor(file: string) {
    this.#worker = new Worker(file);
    this.#worker.unref();
    this.#worker.on('online', () => (this.#online = true));
    this.#worker.on('message', (result: ScaleResult) => {
      this.#waiting.get(result.id)?.(result.url);
      this.#waiting.delete(result.id);
      if (this.#waiting.size === 0) this.#rest();
    });
    const end = (): void => {
      this.ended = true;
      for (const resolve of this.#waiting.values()) resolve(this.#online ? null : undefined);
      this.#waiting.clear();
    };
    this.#worker.on('error', () => {
      // One that could not even start (its file does not load) is not tried again: the host does the work from then on.
      if (!this.#online) workersFail = true;
      end();
    });
    this.#worker.on('exit', end);
  }

  scale(job: Omit<ScaleJob, 'id'>): Promise<string | null | undefined> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    // Held while it has work: a job in flight keeps the process (and its answer) alive.
    this.#worker.ref();
    const id = this.#nextId++;
    return new Promise((resolve) => {
      // A job it does not answer in time is given up, and the worker with it.
      const late = setTimeout(() => {
        this.ended = true;
        void this.#worker.terminate();
      }, JOB_TIMEOUT_MS);
      this.#waiting.set(id, (url) => {
        clearTimeout(late);
        resolve(url);
      });
      this.#worker.postMessage({ ...job, id } satisfies ScaleJob);
    });
  }

  /** No work left: let the process exit without it, and end it once idle for IDLE_MS. */
  #rest(): void {
    this.#worker.unref();
    this.#idle = setTimeout(() => {
      this.ended = true;
      void this.#worker.terminate();
    }, IDLE_MS);
    this.#idle.unref();
  }
}

let thread: ScalingThread | null = null;
let workersFail = false;

/** The worker thread, started if none runs; null where none can start or one failed. */
function scalingThread(): ScalingThread | null {
  if (thread && !thread.ended) return thread;
  if (workersFail) return null;
  const file = workerFile();
  if (!file) return null;
  try {
    thread = new ScalingThread(file);
  } catch {
    thread = null;
  }
  return thread;
}

/** jpegDataUrl's answer, computed on the worker thread (here when no worker can start); null when the worker gave it up. */
export async function scaledJpeg(bytes: Buffer, mime: string, tries: ReadonlyArray<readonly [number, number]>, maxChars: number): Promise<string | null> {
  const url = await scalingThread()?.scale({ bytes, mime, tries, maxChars });
  return url === undefined ? jpegDataUrl(bytes, mime, tries, maxChars) : url;
}

/** The chat's preview of an image (thumbnail.ts previewDataUrl), computed on the worker thread. */
export function scaledPreview(bytes: Buffer, mime: string): Promise<string | null> {
  return scaledJpeg(bytes, mime, PREVIEW_TRIES, MAX_PREVIEW_CHARS);
}

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

/** Beside the bundle (dist/thumbnailWorker.cjs, built by esbuild.js), or the source when run from it (tests). */
function workerFile(): string | null {
  for (const name of ['thumbnailWorker.cjs', 'thumbnailWorker.ts']) {
    const file = join(import.meta.dirname, name);
    if (existsSync(file)) return file;
  }
  return null;
}

let worker: Worker | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 0;
/** Each job's answer: its URL, or undefined when the worker ended without answering it. */
const waiting = new Map<number, (url: string | null | undefined) => void>();

function started(): Worker | null {
  if (worker) return worker;
  const file = workerFile();
  if (!file) return null;
  try {
    worker = new Worker(file);
  } catch {
    return null;
  }
  const ended = (): void => {
    worker = null;
    // A worker that failed answers nothing more: its jobs are done here instead (see scaledJpeg).
    for (const resolve of waiting.values()) resolve(undefined);
    waiting.clear();
  };
  worker.on('message', (result: ScaleResult) => {
    waiting.get(result.id)?.(result.url);
    waiting.delete(result.id);
    if (waiting.size === 0) worker?.unref();
  });
  worker.on('error', ended);
  worker.on('exit', ended);
  return worker;
}

/** jpegDataUrl's answer, computed on the worker thread (here when no worker can run). */
export async function scaledJpeg(bytes: Buffer, mime: string, tries: ReadonlyArray<readonly [number, number]>, maxChars: number): Promise<string | null> {
  const thread = started();
  if (!thread) return jpegDataUrl(bytes, mime, tries, maxChars);
  if (idle) clearTimeout(idle);
  thread.ref();
  const id = nextId++;
  const url = await new Promise<string | null | undefined>((resolve) => {
    waiting.set(id, resolve);
    thread.postMessage({ id, bytes, mime, tries, maxChars } satisfies ScaleJob);
  });
  if (waiting.size === 0) {
    idle = setTimeout(() => void worker?.terminate(), IDLE_MS);
    idle.unref();
  }
  // undefined: the worker died with the job; it is done here.
  return url === undefined ? jpegDataUrl(bytes, mime, tries, maxChars) : url;
}

/** The chat's preview of an image (thumbnail.ts previewDataUrl), computed on the worker thread. */
export function scaledPreview(bytes: Buffer, mime: string): Promise<string | null> {
  return scaledJpeg(bytes, mime, PREVIEW_TRIES, MAX_PREVIEW_CHARS);
}

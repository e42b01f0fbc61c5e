/**
 * The worker thread that scales images for the chat's previews and for the alt text a model is sent
 * (offThread.ts): decoding a PNG and encoding a JPEG in JavaScript took the extension host 0.2-0.7 s per
 * image here, time in which every extension's work waits. Bundled as dist/thumbnailWorker.cjs.
 */
import { parentPort } from 'node:worker_threads';
import { jpegDataUrl } from './thumbnail.ts';
import type { ScaleJob, ScaleResult } from './offThread.ts';

parentPort?.on('message', (job: ScaleJob) => {
  let url: string | null = null;
  try {
    url = jpegDataUrl(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.mime, job.tries, job.maxChars);
  } catch {
    url = null;
  }
  parentPort?.postMessage({ id: job.id, url } satisfies ScaleResult);
});

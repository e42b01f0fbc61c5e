// Image scaling on a worker thread: the same preview the extension host would have made, while the host's event
// loop runs on; and the bundled worker (dist/thumbnailWorker.cjs, what the extension runs) answers a job too.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PNG } from 'pngjs';
import { scaledJpeg, scaledPreview, type ScaleResult } from '../../../src/extension/images/offThread.ts';
import { previewDataUrl } from '../../../src/extension/images/thumbnail.ts';

/** A PNG of noise (compresses badly, like a photo). */
function noisePng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 2654435761) >>> 24;
  return PNG.sync.write(png);
}

describe('image scaling off the extension host thread', function () {
  this.timeout(30_000);
  const png = noisePng(1024, 768);

  it('makes the preview the extension host would have made, while the host goes on', async () => {
    const order: string[] = [];
    const scaled = scaledPreview(png, 'image/png').then((url) => (order.push('scaled'), url));
    await new Promise((done) => setImmediate(done));
    order.push('next turn of the loop');
    const url = await scaled;
    assert.deepEqual(order, ['next turn of the loop', 'scaled']);
    assert.match(url ?? '', /^data:image\/jpeg;base64,/);
    assert.equal(url, previewDataUrl(png, 'image/png'));
    assert.equal(await scaledJpeg(png.subarray(0, 60), 'image/png', [[100, 80]], 1_000_000), null, 'a cut PNG is no image, as in the host');
  });

  it('the bundled worker, as the extension runs it, answers a job', async () => {
    const bundled = resolve(import.meta.dirname, '../../../dist/thumbnailWorker.cjs');
    assert.ok(existsSync(bundled), `${bundled} is built by node esbuild.js (npm test builds before the unit tests)`);
    const worker = new Worker(bundled);
    try {
      const answer = await new Promise<ScaleResult>((done, fail) => {
        worker.once('message', done);
        worker.once('error', fail);
        worker.postMessage({ id: 7, bytes: png, mime: 'image/png', tries: [[384, 80]], maxChars: 90_000 });
      });
      assert.equal(answer.id, 7);
      assert.match(answer.url ?? '', /^data:image\/jpeg;base64,/);
      assert.equal(answer.url, previewDataUrl(png, 'image/png'));
    } finally {
      await worker.terminate();
    }
  });
});

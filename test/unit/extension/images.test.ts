// What /image and Generate Image… are asked (a leading size, the file name, the Markdown link) and the chat's preview
// of an image (scaled down, JPEG, within the chat's Markdown limit), on real PNG and JPEG bytes.
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { imageFormat } from '../../../src/client/index.ts';
import { altText, imageFileName, markdownTarget, parseImagePrompt, workspaceImagePath } from '../../../src/extension/images/imagePrompt.ts';
import { MAX_PREVIEW_CHARS, PREVIEW_SIDE, previewDataUrl, scaleDown } from '../../../src/extension/images/thumbnail.ts';
import { solidPng } from '../../../src/gateway/providers/echo/image.ts';

/** A PNG of noise (compresses badly, like a photo), RGBA. */
function noisePng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  let seed = 7;
  for (let i = 0; i < png.data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    png.data[i] = i % 4 === 3 ? 255 : seed >>> 24;
  }
  return PNG.sync.write(png);
}

function decodePreview(url: string): { width: number; height: number; data: Uint8Array } {
  assert.match(url, /^data:image\/jpeg;base64,/);
  return jpeg.decode(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'), { useTArray: true });
}

describe('images: prompts, file names, links', () => {
  it('a leading size is taken out of the prompt; otherwise the setting\'s size', () => {
    assert.deepEqual(parseImagePrompt('  1536x1024 a wide banner ', '1024x1024'), { prompt: 'a wide banner', size: '1536x1024' });
    assert.deepEqual(parseImagePrompt('512×512 a cat', 'auto'), { prompt: 'a cat', size: '512x512' });
    assert.deepEqual(parseImagePrompt('512 X 256 a cat', 'auto'), { prompt: 'a cat', size: '512x256' });
    assert.deepEqual(parseImagePrompt('a cat in 512x512', '1024x1024'), { prompt: 'a cat in 512x512', size: '1024x1024' }, 'only a leading size');
    assert.deepEqual(parseImagePrompt('1024x1024', 'auto'), { prompt: '', size: '1024x1024' }, 'a size alone leaves nothing to draw');
    assert.deepEqual(parseImagePrompt('0x512 a cat', 'auto'), { prompt: '0x512 a cat', size: 'auto' }, 'no zero sides');
    assert.deepEqual(parseImagePrompt('1024x1024px icon', 'auto'), { prompt: '1024x1024px icon', size: 'auto' }, 'a size must stand alone');
  });

  it('file names come from the prompt\'s first words, in any script', () => {
    assert.equal(imageFileName('A Flat icon of a paper-plane, blue on white!', 'png'), 'a-flat-icon-of-a-paper-plane-blue-on-white.png');
    assert.equal(imageFileName('一只橘猫 在窗台上', 'jpg'), '一只橘猫-在窗台上.jpg');
    assert.equal(imageFileName('a cat', 'png', 2, 3), 'a-cat-2.png');
    assert.equal(imageFileName('!!! ???', 'webp'), 'image.webp');
    assert.equal(imageFileName('../../etc/passwd', 'png'), 'etc-passwd.png', 'no path can come from a prompt');
    const long = imageFileName('word '.repeat(40), 'png');
    assert.ok(long.length <= 48 + 4, long);
    assert.equal(imageFileName('x'.repeat(100), 'png'), `${'x'.repeat(48)}.png`);
  });

  it('alt text and link targets cannot break the Markdown they go in', () => {
    assert.equal(altText('a [bracketed]\nprompt \\ here'), 'a bracketed prompt here');
    assert.equal(altText('x'.repeat(200)).length, 120);
    assert.equal(markdownTarget('images\\a-cat.png'), 'images/a-cat.png');
    assert.equal(markdownTarget('images/a cat (2).png'), '<images/a cat (2).png>');
  });
});

describe("images: where the tool's image goes in the workspace", () => {
  const at = (path: string | undefined, extension = 'png') => workspaceImagePath(path, 'A red kite', extension);
  it('images/ named after the prompt by default; a folder ending in / gets the prompt\'s name', () => {
    assert.deepEqual(at(undefined), { kind: 'path', folder: 'images', name: 'a-red-kite.png', extensionChanged: false });
    assert.deepEqual(at('  '), { kind: 'path', folder: 'images', name: 'a-red-kite.png', extensionChanged: false });
    assert.deepEqual(at('assets/icons/'), { kind: 'path', folder: 'assets/icons', name: 'a-red-kite.png', extensionChanged: false });
    assert.deepEqual(at('./assets\\logo.png'), { kind: 'path', folder: 'assets', name: 'logo.png', extensionChanged: false });
    assert.deepEqual(at('logo.png'), { kind: 'path', folder: '', name: 'logo.png', extensionChanged: false });
  });

  it('the extension follows the format the model sent', () => {
    assert.deepEqual(at('assets/logo.jpg'), { kind: 'path', folder: 'assets', name: 'logo.png', extensionChanged: true });
    assert.deepEqual(at('assets/photo.jpeg', 'jpg'), { kind: 'path', folder: 'assets', name: 'photo.jpeg', extensionChanged: false });
    assert.deepEqual(at('assets/logo', 'webp'), { kind: 'path', folder: 'assets', name: 'logo.webp', extensionChanged: false });
    assert.deepEqual(at('assets/logo.v2', 'png'), { kind: 'path', folder: 'assets', name: 'logo.v2.png', extensionChanged: false });
  });

  it('never outside the workspace', () => {
    for (const path of ['/etc/logo.png', '~/logo.png', 'C:\\logo.png', 'c:/logo.png', '../logo.png', 'assets/../../logo.png', 'assets/..']) {
      assert.equal(at(path).kind, 'refused', path);
    }
  });
});

describe('images: the chat preview', () => {
  it('reads image formats by their signature', () => {
    assert.deepEqual(imageFormat(solidPng(2, 2, [0, 0, 0])), { mime: 'image/png', extension: 'png' });
    assert.deepEqual(imageFormat(jpeg.encode({ width: 2, height: 2, data: Buffer.alloc(16, 255) }, 90).data), { mime: 'image/jpeg', extension: 'jpg' });
    assert.deepEqual(imageFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1')), { mime: 'image/webp', extension: 'webp' });
    assert.deepEqual(imageFormat(Buffer.from('GIF89a', 'latin1')), { mime: 'image/gif', extension: 'gif' });
    assert.equal(imageFormat(Buffer.from('<html>')), null);
    assert.equal(imageFormat(Buffer.alloc(0)), null);
  });

  it('scales down by area average, composited over white, keeping the aspect ratio', () => {
    // 4x2: the left half red, the right half transparent.
    const data = new Uint8Array(4 * 2 * 4);
    for (let y = 0; y < 2; y++) for (let x = 0; x < 2; x++) data.set([255, 0, 0, 255], (y * 4 + x) * 4);
    const small = scaleDown({ width: 4, height: 2, data }, 2);
    assert.deepEqual([small.width, small.height], [2, 1]);
    assert.deepEqual([...small.data], [255, 0, 0, 255, 255, 255, 255, 255]);
    const half = scaleDown({ width: 2, height: 1, data: new Uint8Array([0, 0, 0, 255, 255, 255, 255, 255]) }, 1);
    assert.deepEqual([...half.data], [128, 128, 128, 255], 'black and white average to grey');
    const same = scaleDown({ width: 3, height: 5, data: new Uint8Array(60).fill(255) }, 384);
    assert.deepEqual([same.width, same.height], [3, 5], 'never scaled up');
  });

  it('a PNG gets a JPEG preview at most PREVIEW_SIDE a side, its colour kept', () => {
    const url = previewDataUrl(solidPng(1024, 512, [30, 140, 220]), 'image/png')!;
    const preview = decodePreview(url);
    assert.deepEqual([preview.width, preview.height], [PREVIEW_SIDE, PREVIEW_SIDE / 2]);
    const [r, g, b] = preview.data;
    assert.ok(Math.abs(r! - 30) < 8 && Math.abs(g! - 140) < 8 && Math.abs(b! - 220) < 8, `${r},${g},${b}`);
  });

  it('a photo-like image still fits the chat\'s limit (smaller and coarser when it must)', () => {
    const url = previewDataUrl(noisePng(1536, 1024), 'image/png')!;
    assert.ok(url.length <= MAX_PREVIEW_CHARS, `${url.length} chars`);
    const preview = decodePreview(url);
    assert.ok(preview.width <= PREVIEW_SIDE && preview.width >= PREVIEW_SIDE / 2 - 1, `${preview.width}`);
    assert.equal(Math.round((preview.width / preview.height) * 10), 15, 'the aspect ratio kept');
  });

  it('a JPEG gets a preview too', () => {
    const source = jpeg.encode({ width: 800, height: 800, data: Buffer.alloc(800 * 800 * 4, 90) }, 90).data;
    const preview = decodePreview(previewDataUrl(source, 'image/jpeg')!);
    assert.deepEqual([preview.width, preview.height], [PREVIEW_SIDE, PREVIEW_SIDE]);
  });

  it('no preview for what cannot be read: other formats, broken bytes, a header asking for gigapixels', () => {
    assert.equal(previewDataUrl(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'), 'image/webp'), null);
    assert.equal(previewDataUrl(solidPng(8, 8, [1, 2, 3]).subarray(0, 40), 'image/png'), null, 'a cut PNG');
    assert.equal(previewDataUrl(Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2]), 'image/jpeg'), null, 'a broken JPEG');
    // A valid header claiming 100,000 x 100,000 pixels over a few bytes of data: refused before any allocation.
    const header = Buffer.alloc(13);
    header.writeUInt32BE(100_000, 0);
    header.writeUInt32BE(100_000, 4);
    header.set([8, 2, 0, 0, 0], 8);
    const bomb = Buffer.concat([solidPng(1, 1, [0, 0, 0]).subarray(0, 8), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(10))), chunk('IEND', Buffer.alloc(0))]);
    assert.equal(previewDataUrl(bomb, 'image/png'), null);
  });
});

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
}

import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, consoleAddress, sanitizeSettings } from '../../../src/extension/settings/values.ts';
import { parametersFor } from '../../../src/extension/settings/modelParameters.ts';

const from = (values: Record<string, unknown>) => sanitizeSettings((key) => values[key]);

describe('extension settings sanitising', () => {
  it('gives the defaults for nothing set', () => {
    assert.deepEqual(from({}), DEFAULT_SETTINGS);
  });

  it('trims text settings and ignores non-strings', () => {
    const s = from({ baseUrl: '  https://gw.example/v1  ', model: ' gpt-4o \n', consoleUrl: 42 });
    assert.equal(s.baseUrl, 'https://gw.example/v1');
    assert.equal(s.model, 'gpt-4o');
    assert.equal(s.consoleUrl, '');
  });

  it('reads the image size as the images API takes it, else the default (a wrong one would fail every image)', () => {
    assert.equal(from({}).imageSize, '1024x1024');
    assert.equal(from({ 'image.size': ' 1536X1024 ' }).imageSize, '1536x1024');
    assert.equal(from({ 'image.size': '512×512' }).imageSize, '512x512');
    assert.equal(from({ 'image.size': 'AUTO' }).imageSize, 'auto');
    for (const wrong of ['1024', '1024x', 'x1024', '0x512', '10000x10', 'big', 1024, null]) assert.equal(from({ 'image.size': wrong }).imageSize, '1024x1024', String(wrong));
    assert.equal(from({ imageModel: ' dall-e-3 ' }).imageModel, 'dall-e-3');
  });

  it('reads switches only as booleans, else their defaults', () => {
    assert.equal(DEFAULT_SETTINGS.explainTerminalFailures, true);
    assert.equal(from({ 'terminal.explainFailures': false }).explainTerminalFailures, false);
    assert.equal(from({ 'terminal.explainFailures': 'no' }).explainTerminalFailures, true);
    assert.equal(from({ showBalance: false, useInstructionFiles: false }).showBalance, false);
    assert.equal(from({ useInstructionFiles: 0 }).useInstructionFiles, true);
  });

  it('clamps numbers into range, rounds them, and falls back on garbage', () => {
    assert.equal(from({ requestTimeoutSeconds: 1 }).requestTimeoutSeconds, 5);
    assert.equal(from({ requestTimeoutSeconds: 1e9 }).requestTimeoutSeconds, 3600);
    assert.equal(from({ requestTimeoutSeconds: '30' }).requestTimeoutSeconds, 30);
    assert.equal(from({ requestTimeoutSeconds: 'soon' }).requestTimeoutSeconds, 120);
    assert.equal(from({ requestTimeoutSeconds: Number.NaN }).requestTimeoutSeconds, 120);
    assert.equal(from({ balanceRefreshSeconds: 1 }).balanceRefreshSeconds, 10, 'no refresh storm');
    assert.equal(from({ balanceRefreshSeconds: 0 }).balanceRefreshSeconds, 0, '0 turns it off');
    assert.equal(from({ balanceRefreshSeconds: 90.6 }).balanceRefreshSeconds, 91);
  });

  it('uses the console override when it is an http(s) address, else the root', () => {
    assert.equal(consoleAddress(from({ consoleUrl: 'https://console.example' }), 'https://gw.example'), 'https://console.example');
    assert.equal(consoleAddress(from({ consoleUrl: 'console.example' }), 'https://gw.example'), 'https://gw.example');
    assert.equal(consoleAddress(from({}), null), null);
  });
});

describe('modelGateway.modelParameters', () => {
  it('keeps object entries under trimmed model names and drops the rest', () => {
    const s = from({ modelParameters: { ' qwen3 ': { enable_thinking: false }, broken: 3, '': { temperature: 1 }, list: [1] } });
    assert.deepEqual(s.modelParameters, { qwen3: { enable_thinking: false } });
    assert.deepEqual(from({ modelParameters: 'temperature=0' }).modelParameters, {});
  });

  it('gives a model "*" under its own entry, without the fields the extension controls', () => {
    const all = { '*': { temperature: 0.2, top_p: 0.9, stream: false, messages: [] }, 'o4-mini': { temperature: 1, reasoning_effort: 'high', model: 'other' } };
    assert.deepEqual(parametersFor(all, 'o4-mini'), { temperature: 1, top_p: 0.9, reasoning_effort: 'high' });
    assert.deepEqual(parametersFor(all, 'gpt-4o'), { temperature: 0.2, top_p: 0.9 });
    assert.deepEqual(parametersFor({}, 'gpt-4o'), {});
    // Image requests: the model's own entry only ("*" holds chat fields an image API refuses).
    assert.deepEqual(parametersFor({ ...all, 'dall-e-3': { quality: 'hd', response_format: 'url' } }, 'dall-e-3', { everyModel: false }), { quality: 'hd' });
    assert.deepEqual(parametersFor(all, 'gpt-image-1', { everyModel: false }), {});
  });
});

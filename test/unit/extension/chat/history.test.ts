import assert from 'node:assert/strict';
import { historyToMessages, userContent } from '../../../../src/extension/chat/history.ts';
import type { Turn } from '../../../../src/extension/chat/history.ts';

const ME = 'model-gateway.gateway';
const OTHER = 'github.copilot.default';

describe('chat/history historyToMessages', () => {
  it('sends only this participant’s turns, in order, then the current prompt', () => {
    const history: Turn[] = [
      { kind: 'request', participant: ME, prompt: 'What is 2+2?' },
      { kind: 'response', participant: ME, markdown: ['> **Thinking**\n>\n> add\n\n', '4'], metadata: { answer: '4' } },
      { kind: 'request', participant: OTHER, prompt: 'Explain this file' },
      { kind: 'response', participant: OTHER, markdown: ['It is a file.'] },
      { kind: 'request', participant: ME, prompt: 'And times 3?' },
      { kind: 'response', participant: ME, markdown: ['1', '2'] },
    ];
    assert.deepEqual(historyToMessages(history, ME, { prompt: 'Now halve it.' }), [
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: '4' },
      { role: 'user', content: 'And times 3?' },
      { role: 'assistant', content: '12' },
      { role: 'user', content: 'Now halve it.' },
    ]);
  });

  it('leaves out slash-command turns and failed answers with their requests', () => {
    const history: Turn[] = [
      { kind: 'request', participant: ME, prompt: '', command: 'models' },
      { kind: 'response', participant: ME, command: 'models', markdown: ['- `echo`'] },
      { kind: 'request', participant: ME, prompt: 'Hi' },
      { kind: 'response', participant: ME, markdown: ['**Authentication failed (401)**'], failed: true },
      { kind: 'request', participant: ME, prompt: 'Hi again' },
      { kind: 'response', participant: ME, markdown: ['**Request refused**'], metadata: { failed: true } },
      { kind: 'request', participant: ME, prompt: 'Third try' },
      { kind: 'response', participant: ME, markdown: ['Hello!'] },
    ];
    assert.deepEqual(historyToMessages(history, ME, { prompt: 'Thanks', system: 'Be kind.' }), [
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'Third try' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('keeps /codebase turns: their questions were answered by the model', () => {
    const history: Turn[] = [
      { kind: 'request', participant: ME, prompt: 'where are retries?', command: 'codebase' },
      { kind: 'response', participant: ME, command: 'codebase', markdown: ['_Indexed 3 changed files_', 'In src/retry.ts:4.'], metadata: { answer: 'In src/retry.ts:4.' } },
      { kind: 'request', participant: ME, prompt: '', command: 'balance' },
      { kind: 'response', participant: ME, command: 'balance', markdown: ['$1.00 left'] },
      { kind: 'request', participant: ME, prompt: 'anything?', command: 'codebase' },
      { kind: 'response', participant: ME, command: 'codebase', markdown: ['Pick an embedding model'], metadata: { failed: true } },
    ];
    assert.deepEqual(historyToMessages(history, ME, { prompt: 'How many times?' }), [
      { role: 'user', content: 'where are retries?' },
      { role: 'assistant', content: 'In src/retry.ts:4.' },
      { role: 'user', content: 'How many times?' },
    ]);
  });

  it('keeps /terminal turns as the model was asked them (the command and its output), so a follow-up has them', () => {
    const asked = 'Command: npm run biuld\nExit code: 1\nOutput:\nnpm ERR! Missing script\n\nWhy did it fail, and how do I fix it?';
    const history: Turn[] = [
      { kind: 'request', participant: ME, prompt: '', command: 'terminal' },
      { kind: 'response', participant: ME, command: 'terminal', markdown: ['A typo.', '_About "npm run biuld"_'], metadata: { command: 'terminal', answer: 'A typo.', asked } },
    ];
    assert.deepEqual(historyToMessages(history, ME, { prompt: 'and if the script is in a workspace?' }), [
      { role: 'user', content: asked },
      { role: 'assistant', content: 'A typo.' },
      { role: 'user', content: 'and if the script is in a workspace?' },
    ]);
  });

  it('appends the text of references to the prompt', () => {
    assert.equal(userContent('Review', [{ label: 'src/a.ts', text: 'let a = 1;' }]), 'Review\n\nsrc/a.ts:\n```\nlet a = 1;\n```');
    assert.equal(userContent('Plain'), 'Plain');
  });

  it('sends images attached to the prompt as image_url parts after its text', () => {
    const png = { mimeType: 'image/PNG', data: new Uint8Array([137, 80, 78, 71]) };
    assert.deepEqual(historyToMessages([], ME, { prompt: 'What is wrong here?', references: [{ label: 'a.ts', text: 'x' }], images: [png] }), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is wrong here?\n\na.ts:\n```\nx\n```' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
        ],
      },
    ]);
    assert.deepEqual(historyToMessages([], ME, { prompt: 'Plain', images: [] }), [{ role: 'user', content: 'Plain' }]);
  });
});

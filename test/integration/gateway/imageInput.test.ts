// Whether a model takes images as input, as clients read it from GET /v1/models over real HTTP: VS Code's chat
// lets users attach images (screenshots) only to a model whose capabilities say so. `capabilities.image_input`
// beside `tool_calling`, and OpenRouter's `architecture.input_modalities`, each only when the model says; the
// list and GET /v1/models/{model} alike, through the official openai SDK. The bundled echo model says it takes
// images, and does: an image a client attaches reaches it (as chat's image_url, or converted from Messages and
// Responses) and its answer counts them, text alone answered as before.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { newChannel } from '../../support/channels.ts';
import { poll } from '../../support/poll.ts';
import { call, chatModel, useGatewayWithUpstream } from './helpers.ts';

describe('image input in GET /v1/models', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'oai', baseUrl: upstream.url, models: { 'sees': 'gpt-4o', 'blind': 'o3-mini', 'unsaid': 'gpt-x', 'tools-only': 'gpt-y' } }));
    await admin.setModel(chatModel('sees', 1, 1, { imageInput: true, toolCalling: true }));
    await admin.setModel(chatModel('blind', 1, 1, { imageInput: false }));
    await admin.setModel(chatModel('unsaid', 1, 1));
    await admin.setModel(chatModel('tools-only', 1, 1, { toolCalling: false }));
  });

  type Listed = { id: string; capabilities?: unknown; architecture?: unknown };
  const listed = async (): Promise<Map<string, Listed>> => {
    const models = await poll('the suite\'s models listed', async () => {
      const data = (await suite.openai.models.list()).data as unknown as Listed[];
      return data.some((m) => m.id === 'tools-only') ? data : undefined;
    }, 5000);
    return new Map(models.map((m) => [m.id, m]));
  };
  const said = (m: Listed | undefined) => ({ capabilities: m?.capabilities, architecture: m?.architecture });

  it('says image input and the input modalities when the model says, beside tool calling; neither when it does not', async () => {
    const byId = await listed();
    assert.deepEqual(said(byId.get('sees')), { capabilities: { tool_calling: true, image_input: true }, architecture: { input_modalities: ['text', 'image'] } });
    assert.deepEqual(said(byId.get('blind')), { capabilities: { image_input: false }, architecture: { input_modalities: ['text'] } });
    assert.deepEqual(said(byId.get('unsaid')), { capabilities: undefined, architecture: undefined });
    assert.deepEqual(said(byId.get('tools-only')), { capabilities: { tool_calling: false }, architecture: undefined }, 'tool calling as before');
  });

  it('GET /v1/models/{model} answers the same', async () => {
    const byId = await listed();
    for (const id of ['sees', 'blind', 'unsaid']) {
      const one = await call(suite.t.gw, 'GET', `/v1/models/${id}`, { key: suite.t.key });
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(said(one.json as Listed), said(byId.get(id)), id);
    }
  });

  it('a new price that leaves image input out keeps it; one that says no changes both fields', async () => {
    const admin = suite.t.admin();
    // The store writes tool calling as given (the price rules give the kept value); image input left out is kept.
    await admin.setModel(chatModel('sees', 2_000_000, 2_000_000, { toolCalling: true }));
    const repriced = await poll('the new price listed', async () => {
      const m = (await listed()).get('sees') as Listed & { pricing: { input_per_million_usd: number } };
      return m.pricing.input_per_million_usd === 2 ? m : undefined;
    }, 5000);
    assert.deepEqual(repriced.capabilities, { tool_calling: true, image_input: true });
    await admin.setModel(chatModel('sees', 2_000_000, 2_000_000, { imageInput: false, toolCalling: true }));
    const after = await poll('the change listed', async () => {
      const m = (await listed()).get('sees')!;
      return (m.capabilities as { image_input?: boolean }).image_input === false ? m : undefined;
    }, 5000);
    assert.deepEqual(said(after), { capabilities: { tool_calling: true, image_input: false }, architecture: { input_modalities: ['text'] } });
  });
});

describe('the bundled echo model takes images', () => {
  const suite = useGatewayWithUpstream(async () => undefined);
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it('/v1/models says so for echo', async () => {
    const echo = (await suite.openai.models.list()).data.find((m) => m.id === 'echo') as unknown as { capabilities: unknown; architecture: unknown };
    assert.deepEqual([echo.capabilities, echo.architecture], [{ tool_calling: true, image_input: true }, { input_modalities: ['text', 'image'] }]);
  });

  it('an image_url part reaches echo and is counted, streamed or not; text alone is answered as before', async () => {
    const content = [
      { type: 'text' as const, text: 'what is in this screenshot?' },
      { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${PNG}` } },
    ];
    const whole = await suite.openai.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content }] });
    assert.equal(whole.choices[0]!.message.content, 'You said: what is in this screenshot? (and 1 image)');
    const streamed = await suite.openai.chat.completions.stream({ model: 'echo', messages: [{ role: 'user', content: [...content, content[1]!] }] }).finalChatCompletion();
    assert.equal(streamed.choices[0]!.message.content, 'You said: what is in this screenshot? (and 2 images)');
    const plain = await suite.openai.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(plain.choices[0]!.message.content, 'You said: hello');
  });

  it('an image from a Messages or a Responses client reaches echo too', async () => {
    const claude = new Anthropic({ apiKey: suite.t.key, baseURL: suite.t.gw.url, maxRetries: 0 });
    const message = await claude.messages.create({ model: 'echo', max_tokens: 100, messages: [{ role: 'user', content: [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, { type: 'text', text: 'describe it' },
    ] }] });
    assert.deepEqual(message.content.map((b) => (b.type === 'text' ? b.text : b.type)), ['You said: describe it (and 1 image)']);
    const response = await suite.openai.responses.create({ model: 'echo', input: [{ role: 'user', content: [
      { type: 'input_text', text: 'and this' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
    ] }] });
    assert.equal(response.output_text, 'You said: and this (and 1 image)');
  });
});

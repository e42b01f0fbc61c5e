/**
 * The one table of how a client's format meets an upstream's: passthrough when they match, the
 * chat <-> Messages and Responses -> chat conversions when they differ (chatMessages/, chatResponses/). A pair missing here is a
 * pair no provider sends.
 */
import { estimatedUsage } from '../attempt.ts';
import { generatedChars, messagesBlockChars } from '../estimate.ts';
import { withPlatformModel } from '../modelName.ts';
import type { RelayRequest, RelayUsage } from '../types.ts';
import { chatAnswerToMessages, messagesAnswerToChat } from './chatMessages/answer.ts';
import { chatToMessagesStream, messagesToChatStream } from './chatMessages/stream.ts';
import { formatToolName } from './chatMessages/jsonFormat.ts';
import { chatAnswerToResponses } from './chatResponses/answer.ts';
import { chatToResponsesStream } from './chatResponses/stream.ts';
import { reencodedEmbeddings } from './embeddingEncoding.ts';
import { MessagesStreamReader, messagesPassthrough } from './messagesStream.ts';
import { OpenaiStreamReader, openaiPassthrough } from './openaiStream.ts';
import { outputChars, ResponsesStreamReader, responsesPassthrough } from './responsesStream.ts';
import type { ClientFormat, StreamReader, StreamShaper, UpstreamFormat } from './types.ts';
import { inputUsage, messagesUsage, openaiUsage, responsesUsage } from './usage.ts';

type Json = Record<string, unknown>;

/** How an answer in one upstream format is read, whatever the client's format. */
interface UpstreamSide {
  answerUsage(answer: Json, request: RelayRequest): RelayUsage | null;
  reader(): StreamReader;
}

/** How an answer reaches the client from one upstream format. */
interface ClientSide {
  answer(raw: string, answer: Json, request: RelayRequest, usage: RelayUsage): string;
  shaper(request: RelayRequest): StreamShaper;
}

export interface Translation extends UpstreamSide, ClientSide {
  readonly upstream: UpstreamFormat;
}

/** An item of an image answer that holds an image: its URL or its base64 data. */
function isDrawnImage(item: unknown): boolean {
  if (item === null || typeof item !== 'object') return false;
  const { url, b64_json: data } = item as { url?: unknown; b64_json?: unknown };
  return (typeof url === 'string' && url !== '') || (typeof data === 'string' && data !== '');
}

const openaiSide = (items: 'choices' | 'data', usageOf: (answer: Json, request: RelayRequest, items: unknown[]) => RelayUsage): UpstreamSide => ({
  answerUsage(answer, request) {
    const list = answer[items];
    return Array.isArray(list) ? usageOf(answer, request, list) : null;
  },
  reader: () => new OpenaiStreamReader(),
});

const UPSTREAM: Readonly<Record<UpstreamFormat, UpstreamSide>> = {
  chat: openaiSide('choices', (answer, request, choices) =>
    openaiUsage(answer['usage']) ?? estimatedUsage(request, choices.reduce((n: number, c) => n + generatedChars((c as { message?: unknown } | null)?.message ?? c), 0)),
  ),
  completion: openaiSide('choices', (answer, request, choices) =>
    openaiUsage(answer['usage']) ?? estimatedUsage(request, choices.reduce((n: number, c: unknown) => n + generatedChars(c), 0)),
  ),
  embedding: openaiSide('data', (answer, request) => inputUsage(answer['usage']) ?? estimatedUsage(request, 0)),
  // Only what is an image is charged as one (an item with its url or b64_json): `[null, 5]` is no two images.
  image: openaiSide('data', (_answer, _request, images) => ({ promptTokens: 0, completionTokens: 0, estimated: false, images: images.filter(isDrawnImage).length })),
  messages: {
    answerUsage(answer, request) {
      const content = answer['content'];
      if (!Array.isArray(content)) return null;
      return messagesUsage(answer['usage']) ?? estimatedUsage(request, content.reduce((n: number, b: unknown) => n + messagesBlockChars(b), 0));
    },
    reader: () => new MessagesStreamReader(),
  },
  responses: {
    answerUsage(answer, request) {
      const output = answer['output'];
      if (!Array.isArray(output)) return null;
      return responsesUsage(answer['usage']) ?? estimatedUsage(request, outputChars(output));
    },
    reader: () => new ResponsesStreamReader(),
  },
};

const passthroughJson = (raw: string, answer: Json, request: RelayRequest): string => withPlatformModel(raw, answer, request.model);

const OPENAI_PASSTHROUGH: ClientSide = { answer: passthroughJson, shaper: openaiPassthrough };

/** Keyed `${client} ${upstream}`. */
const CLIENT: Readonly<Record<string, ClientSide>> = {
  'chat chat': OPENAI_PASSTHROUGH,
  'completion completion': OPENAI_PASSTHROUGH,
  'embedding embedding': {
    answer(raw, answer, request) {
      const data = request.operation === 'embedding' ? reencodedEmbeddings(answer, request.body) : null;
      return data ? JSON.stringify({ ...answer, ...('model' in answer ? { model: request.model } : {}), data }) : passthroughJson(raw, answer, request);
    },
    shaper: openaiPassthrough,
  },
  'image image': OPENAI_PASSTHROUGH,
  'messages messages': { answer: passthroughJson, shaper: messagesPassthrough },
  'responses responses': { answer: passthroughJson, shaper: responsesPassthrough },
  'messages chat': {
    answer: (_raw, answer, request, usage) => JSON.stringify(chatAnswerToMessages(answer, request.model, usage)),
    shaper: chatToMessagesStream,
  },
  'responses chat': {
    answer: (_raw, answer, request, usage) => JSON.stringify(chatAnswerToResponses(answer, request, usage)),
    shaper: chatToResponsesStream,
  },
  'chat messages': {
    answer: (_raw, answer, request, usage) => JSON.stringify(messagesAnswerToChat(answer, request.model, usage, formatToolName(request))),
    shaper: messagesToChatStream,
  },
  // Responses on a Messages upstream: through chat, both ways.
  'responses messages': {
    // The signed thinking goes along, to become the reasoning item's encrypted_content (thinkingBlocks.ts).
    answer: (_raw, answer, request, usage) => JSON.stringify(chatAnswerToResponses(messagesAnswerToChat(answer, request.model, usage, formatToolName(request), true), request, usage)),
    shaper: (request) => throughChat(messagesToChatStream({ ...request, clientWantsUsage: false }, true), chatToResponsesStream(request)),
  },
};

/** Two shapers in a row: the first writes chat chunks, which the second reads as its upstream's. */
function throughChat(first: StreamShaper, second: StreamShaper): StreamShaper {
  const feed = (text: string): string => {
    let out = '';
    for (const block of text.split('\n\n')) {
      const data = block.startsWith('data: ') ? block.slice('data: '.length) : '';
      if (!data || data === '[DONE]') continue;
      const json = JSON.parse(data) as Json;
      out += second.event({ event: null, data, json });
    }
    return out;
  };
  return {
    event: (event) => feed(first.event(event)),
    finish: (usage) => feed(first.finish(usage)) + second.finish(usage),
  };
}

const cache = new Map<string, Translation | null>();

/** How a request in `client`'s format is served by an upstream speaking `upstream`; null when no conversion exists. */
export function translationFor(client: ClientFormat, upstream: UpstreamFormat): Translation | null {
  const key = `${client} ${upstream}`;
  let found = cache.get(key);
  if (found === undefined) {
    const side = CLIENT[key];
    found = side ? { upstream, ...UPSTREAM[upstream], ...side } : null;
    cache.set(key, found);
  }
  return found;
}

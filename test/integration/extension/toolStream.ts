/**
 * A small OpenAI-style SSE server for the extension's streaming tests: it answers
 * POST /v1/chat/completions with a script of chunks (tool calls split anywhere,
 * reasoning, text), records each request body, and can hold the stream open to
 * show that a stop really closes the connection.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../support/loopback.ts';
import { GatewayClient } from '../../../src/client/index.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startTestGateway, type Started } from '../gateway/helpers.ts';

export interface Scripted {
  /** Each entry is one SSE `data:` payload (an object is JSON-encoded; a string goes as is). */
  readonly events: ReadonlyArray<object | string>;
  /** Hold the stream open after the events (until the client leaves). */
  readonly hold?: boolean;
  /** Write each event in fragments of this many bytes. */
  readonly fragmentBytes?: number;
}

export interface ToolStreamServer {
  readonly url: string;
  readonly bodies: any[];
  script: Scripted;
  /** Resolves when a client closes a held stream. */
  readonly clientLeft: Promise<void>;
  close(): Promise<void>;
}

export async function startToolStreamServer(script: Scripted): Promise<ToolStreamServer> {
  const bodies: any[] = [];
  let left!: () => void;
  const clientLeft = new Promise<void>((resolve) => (left = resolve));
  const state = { script };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const piece of req) text += piece;
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'tool-model', object: 'model' }] }));
      return;
    }
    bodies.push(JSON.parse(text));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const { events, hold, fragmentBytes } = state.script;
    for (const event of events) {
      const line = Buffer.from(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
      if (!fragmentBytes) res.write(line);
      else for (let i = 0; i < line.length; i += fragmentBytes) res.write(line.subarray(i, i + fragmentBytes));
    }
    if (hold) {
      res.on('close', () => left());
      return;
    }
    res.end('data: [DONE]\n\n');
  });
  const listening = await listenOnLoopback(server);
  return {
    url: `${listening.origin}/v1`,
    bodies,
    get script() {
      return state.script;
    },
    set script(value: Scripted) {
      state.script = value;
    },
    clientLeft,
    close: listening.close,
  };
}

/** A chunk with one choice and this delta. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null): object {
  return { id: 'chatcmpl-t', object: 'chat.completion.chunk', model: 'tool-model', choices: [{ index: 0, delta, finish_reason: finish }] };
}

/**
 * For a `describe`: a gateway on loopback whose one channel `name` serves `models` from a scripted stream server,
 * and a client with the gateway's key; started before the tests, closed after.
 */
export function useScriptedGateway(name: string, models: Record<string, string>): { upstream: ToolStreamServer; client: GatewayClient } {
  const held = {} as { upstream: ToolStreamServer; client: GatewayClient; t: Started };
  before(async () => {
    held.upstream = await startToolStreamServer({ events: [] });
    held.t = await startTestGateway();
    await addChannelPricedFree(held.t.admin(), newChannel({ name, baseUrl: held.upstream.url, models }));
    held.client = new GatewayClient({ baseUrl: held.t.gw.url, apiKey: held.t.key, maxRetries: 0 });
  });
  after(async () => {
    await held.client?.close();
    await held.t?.close();
    await held.upstream?.close();
  });
  return held;
}

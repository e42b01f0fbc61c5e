/**
 * The relay tests' gateway: the real one (startTestGateway), with the channels a test chooses
 * and nothing else serving its models. What the relay decided is read back from the request log,
 * the way an operator would read it.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BOOTSTRAP_ACCOUNT } from '../../../src/gateway/admin.ts';
import { DB_FILE } from '../../../src/gateway/store/index.ts';
import { SseDecoder } from '../../../src/wire/sse.ts';
import type { NewChannel, Store, StoredLog } from '../../../src/gateway/store/types.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { poll } from '../../support/poll.ts';
import { startTestGateway, type Started } from '../gateway/helpers.ts';

/** $1 per million output tokens: one micro-dollar per completion token, so a balance of N affords N tokens. */
const ONE_MICRO_USD_PER_TOKEN = 1_000_000;

export interface Harness {
  readonly url: string;
  readonly key: string;
  /** A second connection to the gateway's store, as the CLI would open. */
  readonly admin: Store;
  /** The channels in the store now, as added. */
  readonly channels: readonly NewChannel[];
  /** Replaces the test's channels (the gateway sees the change on its next request). */
  setChannels(channels: readonly Partial<NewChannel>[]): Promise<void>;
  /** The log row of the `n`th chat request (1-based), once the gateway has written it. */
  log(n: number): Promise<StoredLog>;
  /** Prices `model` and sets the account's balance so that it can pay for exactly `tokens` completion tokens, no more. */
  affordOnly(model: string, tokens: number): Promise<void>;
  /** Makes `model` free again, with the balance ample. */
  affordAll(model: string): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly channels: readonly Partial<NewChannel>[];
  /** The echo model's pace; 0 unless a test wants to watch it stream. */
  readonly echoDelayMs?: number;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const t: Started = await startTestGateway({ echoDelayMs: options.echoDelayMs ?? 0 });
  const admin: Store = t.admin();
  let channels: NewChannel[] = [];

  // A top-up only adds; lowering a balance is the operator's SQL on the data folder (the gateway sees it as any outside write).
  const setBalance = async (micro: number) => {
    const db = new DatabaseSync(join(t.dir, DB_FILE));
    try {
      db.prepare('UPDATE accounts SET balance = ? WHERE name = ?').run(micro, BOOTSTRAP_ACCOUNT);
    } finally {
      db.close();
    }
  };

  const harness: Harness = {
    url: t.gw.url,
    key: t.key,
    admin,
    get channels() {
      return channels;
    },
    async setChannels(specs) {
      for (const c of channels) await admin.removeChannel(c.name);
      channels = specs.map((spec) => newChannel(spec));
      for (const c of channels) await addChannelPricedFree(admin, c);
    },
    async log(n) {
      return poll(`the log row of chat request ${n}`, async () => {
        const rows = (await admin.listLogs(1000)).filter((l) => l.path === '/v1/chat/completions');
        return rows.length >= n ? rows.at(-n) : undefined;
      }, 5000, 20);
    },
    async affordOnly(model, tokens) {
      await admin.setModel({ name: model, kind: 'chat', inputPrice: 0, outputPrice: ONE_MICRO_USD_PER_TOKEN, imagePrice: null, contextLength: null, toolCalling: null });
      await setBalance(tokens);
    },
    async affordAll(model) {
      await admin.setModel({ name: model, kind: 'chat', inputPrice: 0, outputPrice: 0, imagePrice: null, contextLength: null, toolCalling: null });
      await setBalance(10_000_000);
    },
    close: () => t.close(),
  };
  await harness.setChannels(options.channels);
  return harness;
}

/** POSTs a chat body with the harness's key and returns the raw response. */
export function post(harness: Harness, body: object, signal?: AbortSignal): Promise<Response> {
  return fetch(`${harness.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${harness.key}` },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads an SSE response as a client would: a list of `data` payloads, in order. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The product's decoder: the tests read streams the way clients of the gateway do. */
  readonly #decoder = new SseDecoder();
  readonly data: string[] = [];
  ended = false;

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
  }

  /** Reads until `predicate` holds for the data received so far, or the stream ends. */
  async until(predicate: (data: string[]) => boolean): Promise<string[]> {
    while (!predicate(this.data) && !this.ended) {
      const { value, done } = await this.#reader.read();
      if (done) {
        this.ended = true;
        for (const item of this.#decoder.end()) if (item.type === 'event' && !item.unterminated) this.data.push(item.data);
        break;
      }
      for (const item of this.#decoder.push(value)) if (item.type === 'event') this.data.push(item.data);
    }
    return this.data;
  }

  all(): Promise<string[]> {
    return this.until(() => false);
  }

  /** The generated text in the data received so far. */
  content(): string {
    return this.data
      .filter((d) => d !== '[DONE]')
      .map((d) => JSON.parse(d) as { choices?: Array<{ delta?: { content?: string } }> })
      .map((c) => c.choices?.map((x) => x.delta?.content ?? '').join('') ?? '')
      .join('');
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

/** Reads a request body with a size limit; over the limit is 413 request_too_large, bad JSON is 400 invalid_json. */
import type { IncomingMessage } from 'node:http';
import type { BodyBudget, BodyDeadlines } from './bodyBudget.ts';
import { HttpError } from './errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../wire/jsonDepth.ts';
import { decodedBody } from './bodyEncoding.ts';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The status the log records for a request its client gave up on (nginx's): nothing could be answered. */
export const CLIENT_CLOSED_STATUS = 499;

/** The client went away before its body was whole: nobody to answer, nothing wrong with the gateway. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection before its request body was whole');
    this.name = 'ClientGoneError';
  }
}

/** How a gateway receives bodies: each at most `maxBytes`, the whole request within `deadlineMs`, all of them within `budget`. */
export interface BodyRules {
  readonly maxBytes: number;
  readonly deadlineMs: number;
  readonly budget: BodyBudget;
  readonly deadlines: BodyDeadlines;
}

/** Default for the whole request (headers and body) to arrive: a client that stalls holds nothing for long. */
export const DEFAULT_REQUEST_DEADLINE_MS = 30_000;
/** Default memory for all bodies being received at once. */
export const DEFAULT_BODY_BUDGET_BYTES = 256 * 1024 * 1024;

/**
 * The body, whole, decompressed when its Content-Encoding says it is compressed (bodyEncoding.ts); `startedAt`
 * (performance.now()) is when the request began, for the deadline. A body sent as it is costs no step more.
 */
export function readBody(req: IncomingMessage, rules: BodyRules, startedAt: number): Promise<Buffer> {
  const raw = readRawBody(req, rules, startedAt);
  const encoding = req.headers['content-encoding'];
  return encoding === undefined ? raw : raw.then((body) => decodedBody(body, encoding, rules.maxBytes));
}

function readRawBody(req: IncomingMessage, rules: BodyRules, startedAt: number): Promise<Buffer> {
  const limit = rules.maxBytes;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new HttpError('request_too_large', `The limit is ${limit} bytes.`, { Connection: 'close' }));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let held = 0;
    let done = false;
    const finish = (error: Error | null): void => {
      if (done) return;
      done = true;
      unwatch();
      rules.budget.release(held);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (error) {
        chunks.length = 0;
        // Keep draining (and dropping) what the client still sends, so it can read our answer.
        if (!(error instanceof ClientGoneError)) req.resume();
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        finish(new HttpError('request_too_large', `The limit is ${limit} bytes.`, { Connection: 'close' }));
      } else if (!rules.budget.take(chunk.length)) {
        finish(new HttpError('gateway_busy', 'Too many large request bodies are arriving at once.', { 'Retry-After': '1', Connection: 'close' }));
      } else {
        held += chunk.length;
        chunks.push(chunk);
      }
    };
    const onEnd = (): void => finish(null);
    // An error while the body is still arriving is the connection going away (reset, closed).
    const onError = (): void => finish(new ClientGoneError());
    const onAborted = (): void => finish(new ClientGoneError());
    const unwatch = rules.deadlines.watch(startedAt + rules.deadlineMs, () =>
      finish(new HttpError('request_timeout', `The whole request must arrive within ${rules.deadlineMs / 1000} s.`, { Connection: 'close' })),
    );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError('invalid_json', error instanceof Error ? error.message : undefined);
  }
  if (nestsDeeperThan(text)) throw new HttpError('invalid_request', `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`);
  return value;
}

/** Reads a request body with a size limit; over the limit is 413 request_too_large, bad JSON is 400 invalid_json. */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.ts';

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

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new HttpError('request_too_large', `The limit is ${limit} bytes.`, { Connection: 'close' }));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: Error | null): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        // Keep draining (and dropping) what the client still sends, so it can read our answer.
        req.resume();
        finish(new HttpError('request_too_large', `The limit is ${limit} bytes.`, { Connection: 'close' }));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = (): void => finish(null);
    // An error while the body is still arriving is the connection going away (reset, closed).
    const onError = (): void => finish(new ClientGoneError());
    const onAborted = (): void => finish(new ClientGoneError());
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new HttpError('invalid_json', error instanceof Error ? error.message : undefined);
  }
}

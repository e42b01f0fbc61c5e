import type { ServerResponse } from 'node:http';

/** A fake server's JSON answer, with its length. */
export function jsonReply(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

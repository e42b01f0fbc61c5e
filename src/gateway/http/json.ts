/** Success answers of the small JSON routes (status, models, billing, console). */
import type { ServerResponse } from 'node:http';
import { setBaseHeaders } from './headers.ts';

export function sendJson(res: ServerResponse, requestId: string, status: number, value: unknown): void {
  const payload = JSON.stringify(value);
  setBaseHeaders(res, requestId);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

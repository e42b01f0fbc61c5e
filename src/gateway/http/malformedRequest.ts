/**
 * A request Node's HTTP parser refuses (malformed, smuggling attempt, headers too slow) never reaches
 * the app: it is answered here on the raw socket, with the same contract error body, request id and
 * `X-Request-Id` as every other error.
 */
import type { Duplex } from 'node:stream';
import { errorBody, REQUEST_ID_HEADER } from '../../contract/index.ts';
import { newRequestId } from './requestId.ts';

export function answerMalformedRequest(error: Error & { headersSent?: boolean }, socket: Duplex): void {
  if (!socket.writable || error.headersSent) {
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody('invalid_request', requestId, 'The HTTP request is malformed.'));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

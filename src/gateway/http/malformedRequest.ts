/**
 * A request Node's HTTP parser refuses (malformed, smuggling attempt, too large, headers too slow)
 * never reaches the app: it is answered here on the raw socket, with the status that says why
 * (400, 408, 414, 431) and the same contract error body, request id and `X-Request-Id` as every
 * other error.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, errorBody, REQUEST_ID_HEADER, type ErrorCode } from '../../contract/index.ts';
import { newRequestId } from './requestId.ts';

type ParserError = Error & { headersSent?: boolean; code?: string; rawPacket?: Buffer };

/** What was answered, for its log row: the request line as far as it came (its method and path). */
export interface RefusedRequest {
  readonly requestId: string;
  readonly status: number;
  readonly code: ErrorCode;
  readonly method: string;
  readonly path: string;
  readonly clientIp: string;
}

/**
 * Whether the app is handling a request on the connection: Node keeps the response in progress on its socket
 * (`_httpMessage`, what its own clientError handler reads). A parser error there is that request's end, not a new
 * request: a client that sent headers and part of the body, then closed the connection normally (FIN), makes Node's
 * parser report the body it never finished (HPE_INVALID_EOF_STATE). The app logs that as the request's abort (499);
 * answering it here too would log a second row, a 400 with no method or path, for an answer nobody reads.
 */
function handlingRequest(socket: Duplex): boolean {
  return Boolean((socket as Duplex & { _httpMessage?: unknown })._httpMessage);
}

export function answerMalformedRequest(error: ParserError, socket: Duplex, answered: (refused: RefusedRequest) => void = () => undefined): void {
  if (!socket.writable || error.headersSent || handlingRequest(socket)) {
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  const [code, detail] = reasonOf(error);
  const status = ERROR_CODES[code].status;
  const [method = '', target = ''] = requestLineOf(error.rawPacket);
  answered({ requestId, status, code, method: method.slice(0, 16), path: target.split('?', 1)[0]!, clientIp: (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? '' });
  const body = JSON.stringify(errorBody(code, requestId, detail));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Why the parser refused: the headers (or the URL, which Node counts with them) too large, too slow, or malformed. */
function reasonOf(error: ParserError): [ErrorCode, string | undefined] {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // The request line is part of Node's header limit: no line end in what came means the URL alone is too long.
    const packet = error.rawPacket;
    const lineEnd = packet ? packet.indexOf('\r\n') : -1;
    return lineEnd < 0 || lineEnd > 8192 ? ['uri_too_long', 'Keep it under 8 KiB.'] : ['headers_too_large', 'Keep them under 16 KiB.'];
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['request_timeout', undefined];
  return ['invalid_request', 'The HTTP request is malformed.'];
}

/** The method and target of the request line in what came (either may be missing or cut). */
function requestLineOf(packet: Buffer | undefined): string[] {
  if (!packet) return [];
  const end = packet.indexOf('\r\n');
  return packet.subarray(0, end < 0 ? Math.min(packet.length, 16_384) : end).toString('latin1').split(' ', 2);
}

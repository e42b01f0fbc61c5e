// A client that goes away while uploading gets one log row, the 499 client_aborted, whether it closed the connection
// normally (FIN: Node's parser then also reports the body it never finished) or reset it (RST). Before, a FIN gave a
// second row, a 400 invalid_request with no method or path, for an answer nobody could read. A request the parser
// refuses on a fresh connection still gets its 400 and its row. Over real sockets, on a real SQLite file.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { StoredLog } from '../../../src/gateway/store/types.ts';
import { call, startTestGateway, waitForLog, type Started } from './helpers.ts';

describe('a client that goes away mid-request: one log row', () => {
  let t: Started;
  beforeEach(async () => {
    // Every unkeyed row kept: a stray 400 must not hide in the sampling.
    t = await startTestGateway({ unkeyedLogSample: 1_000_000 });
  });
  afterEach(async () => {
    await t.close();
  });

  const open = (): Promise<Socket> => {
    const { hostname, port } = new URL(t.gw.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(socket));
      socket.on('error', reject);
    });
  };
  /** Headers asking for 100 Continue: once it comes, the request is the gateway's; then a part of its body. */
  const startUpload = async (socket: Socket): Promise<void> => {
    const continued = new Promise((resolve) => socket.once('data', resolve));
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\n`
      + 'Content-Length: 100000\r\nExpect: 100-continue\r\n\r\n');
    assert.match(String(await continued), /^HTTP\/1\.1 100 /);
    socket.write('{"model":"echo",');
  };

  /** Every row once a later request's row is in: a row the abort still made would be before it. */
  const rowsAfterMarker = async (): Promise<StoredLog[]> => {
    const marker = await call(t.gw, 'GET', '/v1/models', { key: t.key });
    assert.equal(marker.status, 200);
    const id = marker.headers.get('x-request-id');
    assert.ok(await waitForLog(t.admin(), (l) => l.requestId === id), 'the marker is logged');
    return (await t.admin().listLogs(100)).filter((l) => l.requestId !== id);
  };

  for (const [how, close] of [['closed normally (FIN)', (s: Socket) => s.end()], ['reset (RST)', (s: Socket) => s.resetAndDestroy()]] as const) {
    it(`an upload the client ${how}: the 499 alone`, async () => {
      const socket = await open();
      socket.on('error', () => undefined); // a reset socket may report its own reset
      await startUpload(socket);
      const closed = new Promise((resolve) => socket.on('close', resolve));
      close(socket);
      await closed;
      assert.ok(await waitForLog(t.admin(), (l) => l.errorCode === 'client_aborted'), 'the abort is logged');
      const rows = await rowsAfterMarker();
      assert.deepEqual(rows.map((l) => [l.status, l.errorCode, l.method, l.path]), [[499, 'client_aborted', 'POST', '/v1/chat/completions']]);
    });
  }

  it('a malformed request on a fresh connection is still answered 400 and logged', async () => {
    const socket = await open();
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.end('GET /v1/models HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n');
    await ended;
    assert.match(answer, /^HTTP\/1\.1 400 /);
    const rows = await rowsAfterMarker();
    assert.deepEqual(rows.map((l) => [l.status, l.errorCode]), [[400, 'invalid_request']]);
  });

  it('a malformed request after a finished one on the same connection is answered 400 and logged too', async () => {
    const socket = await open();
    let answer = '';
    socket.setEncoding('utf8');
    const first = new Promise((resolve) => socket.on('data', (chunk: string) => {
      answer += chunk;
      if (/\r\n\r\n[\s\S]*"data"/.test(answer)) resolve(undefined);
    }));
    socket.write(`GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\n\r\n`);
    await first;
    assert.match(answer, /^HTTP\/1\.1 200 /);
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.end('NOT-HTTP at all\r\n\r\n');
    await ended;
    assert.match(answer, /HTTP\/1\.1 400 /);
    const rows = await rowsAfterMarker();
    assert.deepEqual(rows.map((l) => [l.status, l.errorCode]).sort(), [[200, null], [400, 'invalid_request']]);
  });
});

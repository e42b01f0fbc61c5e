/**
 * The parts of undici the relay uses, loaded without undici's index. The index requires all of
 * undici (fetch, WebSocket, caches, mocks) and with it Node's own bundled copy of undici and the web
 * streams: ~1.1 MB more source text and 2-3 MB more heap in every gateway process, for nothing the
 * relay calls. Like the index, this adds the request API (request, stream, pipeline, upgrade, connect)
 * to Dispatcher.prototype: `request` is what the relay calls, and ProxyAgent uses `connect` itself.
 * Doing it twice (when the index is loaded too, as in the extension) assigns the same functions.
 * undici is pinned to an exact version in package.json: these paths are checked by every test run.
 */
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';

Object.assign(Dispatcher.prototype, api);

export { Pool, ProxyAgent };

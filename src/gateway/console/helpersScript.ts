/**
 * The helpers every console page's script starts with (plain browser JavaScript in a string, spliced
 * into each page's function): $ by id, h to build an element (every value as text, never HTML), fill,
 * request, which calls this gateway (at the page's `base`, defined by the script before these) and
 * throws {status, code, message, detail} for any answer that is not a 2xx JSON, and send, a request
 * that says it comes from the console page (X-Model-Gateway-Console, beside the Origin the browser adds).
 */
export const HELPERS_JS = `
  var $ = function (id) { return document.getElementById(id); };

  function h(tag, props, children) {
    var el = document.createElement(tag);
    if (props) for (var k in props) {
      if (k === 'text') el.textContent = props[k];
      else if (k === 'class') el.className = props[k];
      else if (props[k] !== null && props[k] !== undefined) el.setAttribute(k, props[k]);
    }
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) el.append(c); });
    return el;
  }
  function fill(el, children) { el.replaceChildren.apply(el, children); }

  async function request(path, init) {
    var res;
    try {
      res = await fetch(base + path, Object.assign({ cache: 'no-store', credentials: 'same-origin' }, init));
    } catch (e) {
      throw { status: 0, detail: String(e && e.message || e) };
    }
    var text = await res.text();
    var body = null;
    try { body = JSON.parse(text); } catch (e) { body = null; }
    if (!res.ok) {
      var e2 = body && body.error;
      throw { status: res.status, code: e2 && e2.code, message: e2 && e2.message, detail: e2 ? (e2.code ? '[' + e2.code + '] ' : '') + e2.message : 'HTTP ' + res.status };
    }
    if (!body) throw { status: res.status, detail: 'The answer was not JSON.' };
    return body;
  }
  function send(method, path, body) {
    var headers = { 'X-Model-Gateway-Console': '1' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return request(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }
`;

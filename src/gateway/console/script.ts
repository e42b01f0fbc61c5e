/**
 * The console's script (inline, allowed by its hash in the CSP). Plain browser JavaScript in a string:
 * no template literals inside (this file is one), every server value goes into the DOM as text, never as HTML.
 * `window.CONSOLE_DATA` comes from the contract (error families, troubleshooting order), see page.ts.
 */
import { familyOfStatus } from '../../contract/index.ts';
import { HELPERS_JS } from './helpersScript.ts';
import { USER_JS } from './userScript.ts';
import { KEYS_JS } from './keysScript.ts';
import { USER_VIEWS_JS } from './userViewsScript.ts';
import { ADMIN_JS } from './adminScript.ts';
import { CODES_JS } from './codesScript.ts';
import { CHANNELS_JS } from './channelsScript.ts';
import { PRICES_JS } from './pricesScript.ts';
import { TOKENS_JS } from './tokensScript.ts';

export const CONSOLE_JS = `
(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('console-data').textContent);
  var KEY_ITEM = 'modelGateway.console.apiKey';
  var base = location.origin + location.pathname.replace(/\\/(console)?\\/*$/, '');
${HELPERS_JS}
  // ---- errors, in the contract's words (section 7.2) ----
  // The contract's own status -> family function, its source inlined: one table for gateway, client and console.
  var familyOfStatus = ${familyOfStatus.toString()};
  function familyOf(status) {
    if (status === 0) return 'connection';
    if (status >= 200 && status < 300) return 'invalid_response';
    return familyOfStatus(status);
  }
  function showError(err) {
    var fam = DATA.families[familyOf(err.status)];
    var box = $('alert');
    box.className = 'alert';
    fill(box, [
      h('h3', { text: fam.title }),
      h('p', { text: fam.meaning }),
      h('p', null, [h('b', { text: 'What to do: ' }), fam.action]),
      err.detail ? h('code', { text: err.detail }) : null,
    ]);
    box.hidden = false;
  }
  function clearError() { $('alert').hidden = true; }

  function api(path) {
    return request(path, { headers: { Authorization: 'Bearer ' + sessionStorage.getItem(KEY_ITEM) } });
  }

  // ---- formatting ----
  var num = new Intl.NumberFormat();
  function usd(m) { return '$' + m.usd; }
  function when(isoText) {
    var d = new Date(isoText);
    var today = new Date().toDateString() === d.toDateString();
    var time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    return today ? time : d.toLocaleDateString([], { month: 'short', day: 'numeric' }) + ' ' + time;
  }
  function statusPill(s) {
    return h('span', { class: 'pill ' + (s < 300 ? 'ok' : s < 500 ? 'warn' : 'bad'), text: String(s) });
  }

  function copyButton(value, label, idle) {
    idle = idle || 'Copy';
    var b = h('button', { class: 'btn small', type: 'button', title: 'Copy ' + value, 'aria-label': 'Copy ' + (label || value), text: idle });
    b.addEventListener('click', async function () {
      var ok = false;
      try { await navigator.clipboard.writeText(value); ok = true; } catch (e) {
        var t = h('textarea', { 'aria-hidden': 'true' }); t.value = value; document.body.append(t); t.select();
        try { ok = document.execCommand('copy'); } catch (e2) { ok = false; }
        t.remove();
      }
      b.textContent = ok ? 'Copied' : 'Copy failed';
      b.classList.toggle('done', ok);
      setTimeout(function () { b.textContent = idle; b.classList.remove('done'); }, 1600);
    });
    return b;
  }

  // ---- rendering ----
  function renderMe(me) {
    var rem = me.balance.remaining.micro_usd, used = me.balance.used.micro_usd;
    $('bal-remaining').textContent = usd(me.balance.remaining);
    $('bal-used').textContent = usd(me.balance.used) + ' used' + (me.account.name ? ' \\u00b7 account ' + me.account.name : '');
    var total = rem + used;
    $('bal-bar').style.width = (total > 0 ? Math.max(0, Math.min(100, (rem / total) * 100)) : 0).toFixed(1) + '%';

    var k = me.key;
    $('key-name').textContent = k.name;
    fill($('key-facts'), [
      h('dt', { text: 'Key' }), h('dd', null, [h('code', { text: k.prefix })]),
      h('dt', { text: 'Status' }), h('dd', null, [h('span', { class: 'pill ' + (k.status === 'enabled' ? 'ok' : 'bad'), text: k.status })]),
      h('dt', { text: 'Expires' }), h('dd', { text: k.expires_at ? new Date(k.expires_at).toLocaleString() : 'Never' }),
    ]);
    fill($('who-key'), [k.name + ' ', h('code', { class: 'faint', text: k.prefix })]);

    $('allowed').textContent = k.models ? k.models.length + (k.models.length === 1 ? ' model' : ' models') : 'All models';
    fill($('limits'), [
      h('dt', { text: 'Allowed' }), h('dd', { text: k.models ? k.models.join(', ') : 'every model of the gateway' }),
      h('dt', { text: 'Rate' }), h('dd', { text: num.format(k.rpm) + ' requests / min' }),
      h('dt', { text: 'Parallel' }), h('dd', { text: num.format(k.concurrency) + ' at once' }),
    ]);

    $('model-count').textContent = me.models.length + (me.models.length === 1 ? ' model' : ' models') + ' this key may use. Names must match exactly (copy them).';
    if (me.models.length === 0) {
      fill($('models'), [h('div', { class: 'empty', text: 'No model is open to this key. Ask the operator for model permission.' })]);
    } else {
      fill($('models'), [h('div', { class: 'table-wrap' }, [h('table', null, [
        h('thead', null, [h('tr', null, [h('th', { text: 'Model name' }), h('th', { text: 'Kind' }), h('th', { class: 'num', text: 'Input / 1M tokens' }), h('th', { class: 'num', text: 'Output / 1M tokens' }), h('th', { class: 'num', text: 'Context' })])]),
        h('tbody', null, me.models.map(function (m) {
          return h('tr', { 'data-model': m.name }, [
            h('td', null, [h('div', { class: 'name-cell' }, [h('code', { text: m.name }), copyButton(m.name, 'model name ' + m.name)])]),
            h('td', { text: m.kind }),
            h('td', { class: 'num', text: m.per_image ? usd(m.per_image) + ' / image' + (m.per_image_by_variant ? ' (' + m.per_image_by_variant + ')' : '') : usd(m.input_per_million) }),
            h('td', { class: 'num', text: m.per_image ? '\\u2014' : usd(m.output_per_million) }),
            h('td', { class: 'num', text: m.context_length ? num.format(m.context_length) : '\\u2014' }),
          ]);
        })),
      ])])]);
    }
  }

  function renderLogs(list) {
    if (list.data.length === 0) {
      fill($('logs'), [h('div', { class: 'empty', text: 'No requests with this key yet. Send one from your tool, then press Refresh.' })]);
      return;
    }
    fill($('logs'), [h('div', { class: 'table-wrap' }, [h('table', null, [
      h('thead', null, [h('tr', null, ['Time', 'Request ID', 'Endpoint', 'Model', 'Status', 'Error', 'Tokens in / out', 'Cost', 'Latency', 'Stream'].map(function (t, i) {
        return h('th', { class: i >= 6 && i <= 8 ? 'num' : null, text: t });
      }))]),
      h('tbody', null, list.data.map(function (l) {
        var fam = l.error_code ? DATA.families[familyOf(l.status)] : null;
        return h('tr', { 'data-request-id': l.request_id }, [
          h('td', { class: 'nowrap', title: l.time, text: when(l.time) }),
          h('td', null, [h('code', { text: l.request_id })]),
          h('td', { class: 'nowrap' }, [h('code', { class: 'faint', text: l.method + ' ' + l.path })]),
          h('td', null, [l.model ? h('code', { text: l.model }) : h('span', { class: 'faint', text: '\\u2014' })]),
          h('td', { title: (l.attempts || []).length ? 'failed over from: ' + l.attempts.map(function (a) { return a.channel + ' (' + a.code + ', ' + a.ms + ' ms)'; }).join(', ') : null }, [statusPill(l.status)]),
          h('td', { title: fam ? fam.title + ': ' + fam.action : null }, [l.error_code ? h('code', { text: l.error_code }) : h('span', { class: 'faint', text: '\\u2014' })]),
          h('td', { class: 'num', title: [l.usage_estimated ? 'estimated by the gateway' : '', l.completion_cap ? 'the gateway capped the completion at ' + num.format(l.completion_cap) + ' tokens' : ''].filter(Boolean).join('; ') || null, text: num.format(l.prompt_tokens) + ' / ' + num.format(l.completion_tokens) + (l.usage_estimated ? ' *' : '') }),
          h('td', { class: 'num', text: usd(l.cost) }),
          h('td', { class: 'num', text: num.format(l.latency_ms) + ' ms' }),
          h('td', { text: l.stream ? 'yes' : 'no' }),
        ]);
      })),
    ])])]);
  }

  function renderStatic() {
    fill($('urls'), [
      [base, 'Base URL'], [base + '/v1', 'OpenAI-compatible'],
    ].map(function (u) { return h('div', { class: 'url-row' }, [h('span', { class: 'what', text: u[1] }), h('code', { text: u[0] }), copyButton(u[0], u[1])]); }));
    $('curl').textContent = 'curl ' + base + '/v1/models \\\\\\n  -H "Authorization: Bearer $API_KEY"';
    fill($('steps'), DATA.steps.map(function (s) { return h('li', { text: s.text }); }));
    fill($('codes'), DATA.codes.map(function (c) {
      var fam = DATA.families[c[1]];
      return h('li', null, [h('span', { class: 'pill ' + c[2], text: c[0] }), h('span', null, [h('b', { text: fam.title.replace(/ \\(.*\\)$/, '') + '. ' }), fam.action])]);
    }));
  }

  // ---- flow ----
  var loading = false;
  async function load() {
    if (loading) return;
    loading = true;
    $('refresh').disabled = true;
    try {
      var both = await Promise.all([api('/api/console/me'), api('/api/console/logs?limit=50')]);
      renderMe(both[0]);
      renderLogs(both[1]);
      clearError();
      $('signin').hidden = true; $('app').hidden = false; $('who').hidden = false;
      $('updated').textContent = 'Updated ' + new Date().toLocaleTimeString();
    } catch (err) {
      if (err.status === 401 || err.status === 403) signOut();
      showError(err);
    } finally {
      loading = false;
      $('refresh').disabled = false;
    }
  }

  function signOut() {
    sessionStorage.removeItem(KEY_ITEM);
    $('app').hidden = true; $('who').hidden = true; $('signin').hidden = false;
    fill($('models'), []); fill($('logs'), []);
    $('key').value = '';
    $('key').focus();
  }

  $('signin-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var raw = $('key').value;
    var key = raw.trim();
    if (!key) return;
    $('trimmed').hidden = key === raw;
    sessionStorage.setItem(KEY_ITEM, key);
    load();
  });
  $('signout').addEventListener('click', function () {
    if (userMode) return userSignOut();
    clearError(); $('trimmed').hidden = true; signOut();
  });
  $('refresh').addEventListener('click', load);
${USER_JS}
${KEYS_JS}
${USER_VIEWS_JS}
${ADMIN_JS}
${CODES_JS}
${CHANNELS_JS}
${PRICES_JS}
${TOKENS_JS}
  renderStatic();
  startUser().then(function (tookOver) {
    if (tookOver) return;
    if (sessionStorage.getItem(KEY_ITEM)) load(); else $('user-name').focus();
  });
})();
`;

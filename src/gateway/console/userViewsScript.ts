/**
 * The console script's part for the signed-in user's views beside the keys (issue 10): switching views,
 * the model catalogue (GET /api/console/models?q=, asked again as the search box changes, a late answer
 * to an older search dropped), the account's request logs (GET /api/console/account/logs with the
 * filters; "Older" continues from next_before; the CSV link carries the same filters) and the password
 * change (POST /api/console/password). It runs inside script.ts's function after userScript.ts, with
 * their helpers. Model names, key names and error codes go into the DOM as text only.
 */
export const USER_VIEWS_JS = `
  var views = ['keys', 'models', 'logs', 'topup', 'password', 'users', 'audit', 'codes', 'channels', 'prices', 'tokens'];
  var searchTimer = null;
  var logsNext = null;

  function openView(name) {
    views.forEach(function (v) { $('view-' + v).hidden = v !== name; });
    Array.prototype.forEach.call(document.querySelectorAll('#user-tabs .tab'), function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-view') === name)); });
    if (name === 'models') loadCatalogue();
    if (name === 'logs') loadAccountLogs(false);
    if (name === 'password') { $('password-done').hidden = true; $('password-current').focus(); }
    if (name === 'topup') $('redeem-code').focus();
    if (name === 'users') loadUsers(false);
    if (name === 'audit') loadAudit(false);
    if (name === 'codes') loadCodes(false);
    if (name === 'channels') loadChannels();
    if (name === 'prices') loadPrices();
    if (name === 'tokens') loadTokens();
  }
  Array.prototype.forEach.call(document.querySelectorAll('#user-tabs .tab'), function (b) {
    b.addEventListener('click', function () { openView(b.getAttribute('data-view')); });
  });

  /** After sign-in and sign-out: the keys view, the other views emptied. */
  function resetViews(user) {
    fill($('catalogue'), []); fill($('account-logs'), []);
    $('catalogue-q').value = ''; $('account-logs-filters').reset(); $('password-form').reset();
    $('password-user').value = user ? user.name : '';
    $('account-logs-older').hidden = true; $('password-done').hidden = true;
    logsNext = null;
    resetAdmin(user);
    resetCodeViews();
    resetChannels();
    resetPrices();
    resetTokens();
    openView('keys');
  }

  /** The keys filter of the logs view lists the account's keys (from the keys view's latest list). */
  function keysListed(list) {
    var select = $('account-logs-key');
    var chosen = select.value;
    fill(select, [h('option', { value: '', text: 'All keys' })].concat(list.map(function (k) { return h('option', { value: String(k.id), text: k.name }); })));
    select.value = list.some(function (k) { return String(k.id) === chosen; }) ? chosen : '';
  }

  function failed(title, err) {
    if (err.status === 401) return userSignedOut(err);
    showUserError(title, err);
  }

  // ---- models ----
  function price(m) {
    if (m.per_image) return [usd(m.per_image) + ' / image' + (m.per_image_by_variant ? ' (' + m.per_image_by_variant + ')' : ''), '\\u2014'];
    return [usd(m.input_per_million), usd(m.output_per_million)];
  }
  /** GET path?q= with the search box's text: {list, q}, or null when a newer search of the same list was asked meanwhile (its answer wins). */
  var searchesAsked = {};
  async function latestSearch(path, box) {
    var asked = searchesAsked[path] = (searchesAsked[path] || 0) + 1;
    var q = $(box).value.trim();
    var list = (await send('GET', path + (q ? '?q=' + encodeURIComponent(q) : ''))).data;
    return asked === searchesAsked[path] ? { list: list, q: q } : null;
  }
  async function loadCatalogue() {
    try {
      var found = await latestSearch('/api/console/models', 'catalogue-q');
      if (found) renderCatalogue(found.list, found.q);
    } catch (err) {
      failed('Could not list the models', err);
    }
  }
  function renderCatalogue(list, q) {
    $('catalogue-count').textContent = list.length + (list.length === 1 ? ' model' : ' models') + (q ? ' match "' + q + '".' : ' open to your account.') + ' Names must match exactly: copy them.';
    if (list.length === 0) {
      fill($('catalogue'), [h('div', { class: 'empty', text: q ? 'No model name contains "' + q + '".' : 'No model is open yet. Ask the operator.' })]);
      return;
    }
    fill($('catalogue'), [h('div', { class: 'table-wrap' }, [h('table', null, [
      h('thead', null, [h('tr', null, [['Model name'], ['Kind'], ['Context', 'num'], ['Input / 1M tokens', 'num'], ['Output / 1M tokens', 'num'], ['Tools']].map(function (c) { return h('th', { class: c[1] || null, text: c[0] }); }))]),
      h('tbody', null, list.map(function (m) {
        var p = price(m);
        return h('tr', { 'data-model': m.name }, [
          h('td', null, [h('div', { class: 'name-cell' }, [h('code', { text: m.name }), copyButton(m.name, 'model name ' + m.name)])]),
          h('td', { text: m.kind }),
          h('td', { class: 'num', text: m.context_length ? num.format(m.context_length) : '\\u2014' }),
          h('td', { class: 'num', text: p[0] }),
          h('td', { class: 'num', text: p[1] }),
          h('td', { text: m.tool_calling ? 'yes' : 'no' }),
        ]);
      })),
    ])])]);
  }
  $('catalogue-q').addEventListener('input', function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(loadCatalogue, 120);
  });

  // ---- logs ----
  /** The filters as a query string (no secret can be in it: key ids, a model name, times). */
  function logsQuery(extra) {
    var p = new URLSearchParams();
    if ($('account-logs-key').value) p.set('key', $('account-logs-key').value);
    if ($('account-logs-model').value.trim()) p.set('model', $('account-logs-model').value.trim());
    if ($('account-logs-status').value) p.set('status', $('account-logs-status').value);
    if ($('account-logs-since').value) p.set('since', new Date($('account-logs-since').value).toISOString());
    if ($('account-logs-until').value) p.set('until', new Date($('account-logs-until').value).toISOString());
    for (var k in extra) p.set(k, extra[k]);
    var s = p.toString();
    return s ? '?' + s : '';
  }
  async function loadAccountLogs(older) {
    if (older && logsNext === null) return;
    var path = '/api/console/account/logs' + logsQuery(older ? { before: String(logsNext) } : {});
    $('account-logs-csv').href = base + '/api/console/account/logs' + logsQuery({ format: 'csv' });
    try {
      var page = await send('GET', path);
      logsNext = page.next_before;
      $('account-logs-older').hidden = logsNext === null;
      renderAccountLogs(page.data, older);
      clearError();
    } catch (err) {
      failed('Could not list the request logs', err);
    }
  }
  function logRow(l) {
    var fam = l.error_code ? DATA.families[familyOf(l.status)] : null;
    return h('tr', { 'data-request-id': l.request_id }, [
      h('td', { class: 'nowrap', title: l.time, text: when(l.time) }),
      h('td', { text: l.key_name || '\\u2014' }),
      h('td', null, [l.model ? h('code', { text: l.model }) : h('span', { class: 'faint', text: '\\u2014' })]),
      h('td', null, [statusPill(l.status)]),
      h('td', { title: fam ? fam.title + ': ' + fam.action : null }, [l.error_code ? h('code', { text: l.error_code }) : h('span', { class: 'faint', text: '\\u2014' })]),
      h('td', { class: 'num', text: num.format(l.prompt_tokens) + ' / ' + num.format(l.completion_tokens) + (l.usage_estimated ? ' *' : '') }),
      h('td', { class: 'num', text: usd(l.cost) }),
      h('td', { class: 'num', text: num.format(l.latency_ms) + ' ms' + (l.first_byte_ms !== null && l.first_byte_ms !== undefined ? ' (first byte ' + num.format(l.first_byte_ms) + ' ms)' : '') }),
      h('td', null, [h('code', { class: 'faint', text: l.request_id })]),
    ]);
  }
  function renderAccountLogs(rows, older) {
    var body = older ? document.querySelector('#account-logs tbody') : null;
    if (body) { rows.forEach(function (l) { body.append(logRow(l)); }); return; }
    if (rows.length === 0) {
      fill($('account-logs'), [h('div', { class: 'empty', text: 'No request matches. Send one from your tool with one of your keys, then press Show.' })]);
      return;
    }
    fill($('account-logs'), [h('div', { class: 'table-wrap' }, [h('table', null, [
      h('thead', null, [h('tr', null, ['Time', 'Key', 'Model', 'Status', 'Error', 'Tokens in / out', 'Cost', 'Latency', 'Request ID'].map(function (t, i) {
        return h('th', { class: i >= 5 && i <= 7 ? 'num' : null, text: t });
      }))]),
      h('tbody', null, rows.map(logRow)),
    ])])]);
  }
  $('account-logs-filters').addEventListener('submit', function (event) { event.preventDefault(); loadAccountLogs(false); });
  ['account-logs-key', 'account-logs-status'].forEach(function (id) { $(id).addEventListener('change', function () { loadAccountLogs(false); }); });
  $('account-logs-older').addEventListener('click', function () { loadAccountLogs(true); });

  // ---- password ----
  $('password-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    $('password-done').hidden = true;
    if ($('password-new').value !== $('password-again').value) {
      showUserError('Could not change the password', { message: 'The two new passwords differ.' });
      return;
    }
    $('password-button').disabled = true;
    try {
      await send('POST', '/api/console/password', { current: $('password-current').value, new: $('password-new').value });
      $('password-form').reset();
      clearError();
      $('password-done').textContent = 'Password changed. Every other browser signed in as you was signed out.';
      $('password-done').hidden = false;
    } catch (err) {
      $('password-current').value = '';
      failed('Could not change the password', err);
    } finally {
      $('password-button').disabled = false;
    }
  });
`;

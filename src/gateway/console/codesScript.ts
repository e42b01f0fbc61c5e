/**
 * The console script's part for redemption codes (issue 10): the Top up view (POST
 * /api/console/account/redeem, the new balance shown) and, for admins, the Codes view (POST
 * /api/console/admin/codes: the batch shown once with a copy-all button and forgotten at "I have copied
 * them"; GET /api/console/admin/codes with the batch and status filters and Older paging; POST
 * /api/console/admin/codes/disable by id or batch, after a confirmation). It runs inside script.ts's
 * function after userViewsScript.ts, with their helpers (h, fill, $, send, copyButton, confirmIn, action,
 * failed, when, usd). Codes are never stored by the page; every value goes into the DOM as text.
 */
export const CODES_JS = `
  var codesNext = null;

  // ---- top up ----
  function resetTopUp() {
    $('redeem-form').reset();
    $('redeem-done').hidden = true;
  }
  $('redeem-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    $('redeem-done').hidden = true;
    $('redeem-button').disabled = true;
    try {
      var answer = await send('POST', '/api/console/account/redeem', { code: $('redeem-code').value.trim() });
      $('redeem-form').reset();
      clearError();
      $('redeem-credited').textContent = 'Redeemed: ' + usd(answer.credited) + ' added to account ' + answer.account + '.';
      $('redeem-balance').textContent = usd(answer.balance);
      $('account-balance').textContent = usd(answer.balance); // the keys view's balance, without another request
      $('redeem-done').hidden = false;
    } catch (err) {
      failed(err.status === 429 ? 'Too many wrong codes' : 'Could not redeem the code', err);
    } finally {
      $('redeem-button').disabled = false;
    }
  });

  // ---- codes (admins) ----
  function forgetCodes() {
    $('new-codes').hidden = true;
    $('new-codes-list').textContent = '';
    fill($('new-codes-copy'), []);
  }
  function showCodes(answer) {
    var all = answer.codes.map(function (c) { return c.code; }).join('\\n');
    $('new-codes-what').textContent = answer.codes.length + (answer.codes.length === 1 ? ' code' : ' codes') + ' of ' + usd(answer.value) +
      (answer.batch ? ', batch ' + answer.batch : '') + (answer.expires_at ? ', expiring ' + new Date(answer.expires_at).toLocaleDateString() : '');
    $('new-codes-list').textContent = all;
    var copy = copyButton(all, 'all codes', 'Copy all');
    copy.title = 'Copy all codes';
    fill($('new-codes-copy'), [copy]);
    $('new-codes').hidden = false;
  }
  $('new-codes-done').addEventListener('click', forgetCodes);

  $('generate-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var body = { value_usd: $('generate-value').value.trim().replace(/^\\$/, ''), count: Number($('generate-count').value) };
    if ($('generate-batch').value.trim()) body.batch = $('generate-batch').value.trim();
    if ($('generate-expires').value) body.expires_at = new Date($('generate-expires').value + 'T23:59:59').toISOString();
    $('generate-button').disabled = true;
    try {
      showCodes(await send('POST', '/api/console/admin/codes', body));
      clearError();
      $('generate-form').reset();
      $('admin-codes-batch').value = body.batch || '';
      $('admin-codes-status').value = '';
      await loadCodes(false);
    } catch (err) {
      failed('Could not generate the codes', err);
    } finally {
      $('generate-button').disabled = false;
    }
  });

  function codesQuery(extra) {
    var p = new URLSearchParams();
    if ($('admin-codes-batch').value.trim()) p.set('batch', $('admin-codes-batch').value.trim());
    if ($('admin-codes-status').value) p.set('status', $('admin-codes-status').value);
    for (var k in extra) p.set(k, extra[k]);
    var s = p.toString();
    return s ? '?' + s : '';
  }
  async function loadCodes(older) {
    if (older && codesNext === null) return;
    try {
      var page = await send('GET', '/api/console/admin/codes' + codesQuery(older ? { before: String(codesNext) } : {}));
      codesNext = page.next_before;
      $('admin-codes-older').hidden = codesNext === null;
      $('admin-codes-disable-batch').hidden = !$('admin-codes-batch').value.trim();
      renderCodes(page.data, older);
    } catch (err) {
      failed('Could not list the codes', err);
    }
  }
  async function disableCodes(target) {
    try {
      await send('POST', '/api/console/admin/codes/disable', target);
      clearError();
    } catch (err) {
      failed('Could not disable', err);
    }
    await loadCodes(false);
  }
  var CODE_PILLS = { unused: 'ok', used: 'neutral', expired: 'warn', disabled: 'bad' };
  function codeRow(c) {
    var cell = h('td', null, c.status === 'unused' || c.status === 'expired' ? [h('div', { class: 'actions' }, [
      action('Disable', 'danger', function () { confirmIn(this.parentNode, 'Disable code ' + c.id + '?', 'Disable', function () { disableCodes({ id: c.id }); }); }),
    ])] : []);
    return h('tr', { 'data-code-id': String(c.id) }, [
      h('td', { class: 'num', text: String(c.id) }),
      h('td', { text: c.batch || '\\u2014' }),
      h('td', { class: 'num', text: usd(c.value) }),
      h('td', null, [h('span', { class: 'pill ' + CODE_PILLS[c.status], text: c.status })]),
      h('td', { text: c.redeemed_by ? (c.redeemed_by.account || '?') + (c.redeemed_by.user ? ' (' + c.redeemed_by.user + ')' : '') : '\\u2014' }),
      h('td', { class: 'nowrap', text: when(c.created_at) + (c.created_by ? ' by ' + c.created_by : '') }),
      h('td', { class: 'nowrap', text: c.redeemed_at ? when(c.redeemed_at) : '\\u2014' }),
      h('td', { class: 'nowrap', text: c.expires_at ? new Date(c.expires_at).toLocaleDateString() : 'never' }),
      cell,
    ]);
  }
  function renderCodes(rows, older) {
    var body = older ? document.querySelector('#admin-codes tbody') : null;
    if (body) { rows.forEach(function (c) { body.append(codeRow(c)); }); return; }
    if (rows.length === 0) {
      fill($('admin-codes'), [h('div', { class: 'empty', text: 'No code matches. Generate some above.' })]);
      return;
    }
    fill($('admin-codes'), [h('div', { class: 'table-wrap' }, [h('table', null, [
      h('thead', null, [h('tr', null, ['ID', 'Batch', 'Value', 'Status', 'Redeemed by', 'Created', 'Redeemed', 'Expires', ''].map(function (t, i) {
        return h('th', { class: i === 0 || i === 2 ? 'num' : null, text: t });
      }))]),
      h('tbody', null, rows.map(codeRow)),
    ])])]);
  }
  $('admin-codes-filters').addEventListener('submit', function (event) { event.preventDefault(); loadCodes(false); });
  $('admin-codes-status').addEventListener('change', function () { loadCodes(false); });
  $('admin-codes-older').addEventListener('click', function () { loadCodes(true); });
  $('admin-codes-refresh').addEventListener('click', function () { loadCodes(false); });
  $('admin-codes-disable-batch').addEventListener('click', function () {
    var batch = $('admin-codes-batch').value.trim();
    var cell = $('admin-codes-batch-action');
    var button = $('admin-codes-disable-batch');
    if (batch) confirmIn(cell, 'Disable every unused code of ' + batch + '?', 'Disable', async function () { await disableCodes({ batch: batch }); fill(cell, [button]); });
  });

  /** After sign-in and sign-out (the Codes tab is an admin tab: adminScript.ts's resetAdmin shows it): both views emptied, no code left on the page. */
  function resetCodeViews() {
    resetTopUp();
    forgetCodes();
    fill($('admin-codes'), []);
    $('generate-form').reset(); $('admin-codes-filters').reset();
    $('admin-codes-older').hidden = true; $('admin-codes-disable-batch').hidden = true;
    codesNext = null;
  }
`;

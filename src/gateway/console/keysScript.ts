/**
 * The keys view's list and forms (issue 10): a new key with its own limits (tokens per minute, requests
 * per day, a spending limit over a period, an IP allow-list), the list showing every limit and what each
 * key spent in its period, and a row's limits edited in place (POST /api/console/keys/limits). Runs inside
 * script.ts's function with its helpers and userScript.ts's (send, action, confirmIn, keyAction, showSecret).
 * Every value from the server goes in as text.
 */

/** The limit fields both forms share, found by name (each label holds its input: the edit form is cloned, so no ids). */
export const LIMIT_FIELDS_HTML = `
        <div><label>Tokens / min<input name="tpm" type="number" min="0" placeholder="no limit"></label></div>
        <div><label>Requests / day<input name="rpd" type="number" min="0" placeholder="no limit"></label></div>
        <div><label>Spending limit (USD)<input name="spend_limit_usd" type="text" inputmode="decimal" placeholder="no limit" spellcheck="false"></label></div>
        <div><label>Per<select name="spend_period"><option value="total">in total</option><option value="day">UTC day</option><option value="month">UTC month</option></select></label></div>
        <div class="wide"><label>Allowed IPs<input name="allow_ips" type="text" placeholder="anywhere; or: 203.0.113.7, 10.0.0.0/8" spellcheck="false" autocapitalize="off"></label></div>`;

/** The edit form of a key's limits, cloned into the key's row. */
export const LIMITS_TEMPLATE_HTML = `
    <template id="key-limits-template"><form class="limits-form" autocomplete="off">
        <div><label>Requests / min<input name="rpm" type="number" min="1" required></label></div>
        <div><label>At once<input name="concurrency" type="number" min="1" required></label></div>${LIMIT_FIELDS_HTML}
        <div class="actions"><button class="btn small primary" type="submit">Save limits</button><button class="btn small" type="button" data-cancel>Cancel</button></div>
    </form></template>`;

export const KEYS_JS = `
  /** "$5.00", "$0.1234": the exact decimal text the server sends, at least two decimals. */
  function dollars(m) { return '$' + m.usd.replace(/(\\.\\d\\d\\d*?)0+$/, '$1'); }
  var PERIOD_WORDS = { total: 'in total', day: 'today (UTC)', month: 'this month (UTC)' };

  function spendingText(k) {
    if (!k.spend_limit) return dollars(k.spent) + ' ' + PERIOD_WORDS[k.spend_period] + ', no limit';
    return dollars(k.spent) + ' of ' + dollars(k.spend_limit) + ' ' + PERIOD_WORDS[k.spend_period] + (k.resets_at ? ', resets ' + when(k.resets_at) : '');
  }
  function limitsText(k) {
    var parts = [num.format(k.rpm) + '/min', num.format(k.concurrency) + ' at once'];
    if (k.tpm) parts.push(num.format(k.tpm) + ' tokens/min');
    if (k.rpd) parts.push(num.format(k.rpd) + '/day');
    return parts.join(', ');
  }

  /** The limit fields of a form into a request body. Empty fields: left out on a new key; on an edit they remove the spending limit or the IP list. */
  function limitsBody(form, body, editing) {
    var f = form.elements;
    ['tpm', 'rpd', 'rpm', 'concurrency'].forEach(function (n) { if (f[n] && f[n].value !== '') body[n] = Number(f[n].value); });
    var spend = f.spend_limit_usd.value.trim().replace(/^\\$/, '');
    if (spend) body.spend_limit_usd = spend; else if (editing) body.spend_limit_usd = null;
    body.spend_period = f.spend_period.value;
    var ips = f.allow_ips.value.split(/[\\s,]+/).filter(Boolean);
    if (ips.length) body.allow_ips = ips; else if (editing) body.allow_ips = null;
    return body;
  }

  function editLimits(row, k) {
    if (row.nextSibling && row.nextSibling.classList && row.nextSibling.classList.contains('limits-row')) return;
    var form = $('key-limits-template').content.firstElementChild.cloneNode(true);
    var f = form.elements;
    f.rpm.value = k.rpm || ''; f.concurrency.value = k.concurrency || '';
    f.tpm.value = k.tpm || ''; f.rpd.value = k.rpd || '';
    f.spend_limit_usd.value = k.spend_limit ? k.spend_limit.usd.replace(/(\\.\\d\\d\\d*?)0+$/, '$1') : '';
    f.spend_period.value = k.spend_period;
    f.allow_ips.value = k.allow_ips ? k.allow_ips.join(', ') : '';
    var editRow = h('tr', { class: 'limits-row', 'data-limits-of': k.name }, [h('td', { colspan: '11' }, [form])]);
    form.querySelector('[data-cancel]').addEventListener('click', function () { editRow.remove(); });
    form.addEventListener('submit', async function (event) {
      event.preventDefault();
      try {
        await send('POST', '/api/console/keys/limits', limitsBody(form, { id: k.id }, true));
        clearError();
      } catch (err) {
        if (err.status === 401) return userSignedOut(err);
        return showUserError('Could not change the limits of ' + k.name, err);
      }
      await loadKeys();
    });
    row.after(editRow);
    f.rpm.focus();
  }

  function renderKeys(list) {
    keysListed(list);
    if (list.length === 0) {
      fill($('keys'), [h('div', { class: 'empty', text: 'No API keys yet. Create one above; its secret is shown once.' })]);
      return;
    }
    fill($('keys'), [h('div', { class: 'table-wrap' }, [h('table', null, [
      h('thead', null, [h('tr', null, ['Name', 'Key', 'Status', 'Created', 'Last used', 'Expires', 'Models', 'Limits', 'Spending', 'IPs', ''].map(function (t) { return h('th', { text: t }); }))]),
      h('tbody', null, list.map(function (k) {
        var row;
        var cell = h('td', null, [h('div', { class: 'actions' }, [
          action(k.status === 'enabled' ? 'Disable' : 'Enable', null, function () { keyAction(k.status === 'enabled' ? 'disable' : 'enable', k.id); }),
          action('Limits', null, function () { editLimits(row, k); }),
          action('Rotate', null, function () { confirmIn(this.parentNode, 'New secret? The old one stops at once.', 'Rotate', function () { keyAction('rotate', k.id); }); }),
          action('Delete', 'danger', function () { confirmIn(this.parentNode, 'Delete ' + k.name + '?', 'Delete', function () { keyAction('delete', k.id); }); }),
        ])]);
        row = h('tr', { 'data-key-name': k.name }, [
          h('td', null, [h('b', { text: k.name })]),
          h('td', null, [h('code', { class: 'faint', text: k.prefix })]),
          h('td', null, [h('span', { class: 'pill ' + (k.status === 'enabled' ? 'ok' : 'bad'), text: k.status })]),
          h('td', { class: 'nowrap', text: when(k.created_at) }),
          h('td', { class: 'nowrap', text: k.last_used_at ? when(k.last_used_at) : 'never' }),
          h('td', { class: 'nowrap', text: k.expires_at ? new Date(k.expires_at).toLocaleDateString() : 'never' }),
          h('td', { text: k.models ? k.models.join(', ') : 'all' }),
          h('td', { 'data-limits': '', text: limitsText(k) }),
          h('td', { 'data-spending': '', text: spendingText(k) }),
          h('td', { 'data-ips': '', text: k.allow_ips ? k.allow_ips.join(', ') : 'any' }),
          cell,
        ]);
        return row;
      })),
    ])])]);
  }

  $('new-key-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var body = { name: $('new-key-name').value.trim() };
    var models = $('new-key-models').value.split(',').map(function (m) { return m.trim(); }).filter(Boolean);
    if (models.length) body.models = models;
    if ($('new-key-expires').value) body.expires_at = new Date($('new-key-expires').value + 'T23:59:59').toISOString();
    if ($('new-key-rpm').value) body.rpm = Number($('new-key-rpm').value);
    if ($('new-key-concurrency').value) body.concurrency = Number($('new-key-concurrency').value);
    limitsBody($('new-key-form'), body, false);
    $('new-key-button').disabled = true;
    try {
      showSecret(await send('POST', '/api/console/keys', body));
      clearError();
      $('new-key-form').reset();
    } catch (err) {
      if (err.status === 401) return userSignedOut(err);
      showUserError('Could not create the key', err);
    } finally {
      $('new-key-button').disabled = false;
    }
    await loadKeys();
  });
`;

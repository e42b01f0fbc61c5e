/**
 * The console script's part for the admins' Channels view (issue 10): GET /api/console/admin/channels
 * (settings, status, whether a key is set, health), the add form (POST .../channels; the key typed there
 * is sent once and the field emptied), each row's actions: Test (POST .../channels/test, its result shown
 * under the row), Edit in place (POST .../channels/update; a key field left empty keeps the key), Disable or
 * Enable, and Delete after a confirmation. After an add, models without a price lead to the Models & prices
 * view. It runs inside script.ts's function after adminScript.ts, with their helpers (h, fill, $, send,
 * action, confirmIn, failed, when, num). Every value goes into the DOM as text.
 */
export const CHANNELS_JS = `
  // ---- channels (admins) ----
  function channelsNotice(children) {
    fill($('channels-done'), children);
    $('channels-done').hidden = false;
  }

  /** "a, big=up-big" as a channel's models (platform name -> upstream name), and back. */
  function modelsOf(text) {
    var out = {};
    text.split(',').forEach(function (part) {
      var p = part.trim();
      if (!p) return;
      var at = p.indexOf('=');
      if (at < 0) out[p] = p; else out[p.slice(0, at).trim()] = p.slice(at + 1).trim();
    });
    return out;
  }
  function modelsText(models) {
    return Object.keys(models).map(function (k) { return models[k] === k ? k : k + '=' + models[k]; }).join(', ');
  }

  /** The settings typed in 'read(field)' (a field's text), as the API takes them: empty ones left out (or null where 'clear'). */
  function channelSettings(read, clear) {
    var body = {};
    var text = function (f) { return read(f).trim(); };
    if (text('base-url')) body.base_url = text('base-url'); else if (clear) body.base_url = null;
    if (text('models')) body.models = modelsOf(text('models'));
    [['priority', 'priority'], ['weight', 'weight'], ['timeout', 'timeout_ms']].forEach(function (p) { if (text(p[0])) body[p[1]] = Number(text(p[0])); });
    if (text('proxy')) body.proxy = text('proxy'); else if (clear) body.proxy = null;
    if (read('responses') === 'yes' || read('responses') === 'no') body.responses_api = read('responses') === 'yes'; else if (clear) body.responses_api = null;
    return body;
  }

  async function loadChannels() {
    try {
      renderChannels((await send('GET', '/api/console/admin/channels')).data);
    } catch (err) {
      failed('Could not list the channels', err);
    }
  }

  function healthText(c) {
    var h2 = c.health;
    var parts = [num.format(h2.served) + ' served', num.format(h2.failed) + ' failed'];
    if (h2.cooling_down_until) parts.push('skipped until ' + when(h2.cooling_down_until));
    else if (h2.failures_in_a_row > 0) parts.push(h2.failures_in_a_row + ' failed in a row');
    return parts.join(' \\u00b7 ');
  }

  async function channelChange(what, body, done) {
    try {
      var answer = await send('POST', '/api/console/admin/channels/' + what, body);
      clearError();
      channelsNotice([done(answer)]);
    } catch (err) {
      failed('Could not change channel ' + body.name, err);
    }
    await loadChannels();
  }

  /** The test's answer under the channel's row: OK or the contract's code, the status, the time and the upstream's words. */
  async function testChannelRow(c, row) {
    var shown = row.nextSibling && row.nextSibling.getAttribute && row.nextSibling.getAttribute('data-test-for') === c.name ? row.nextSibling : null;
    var out = shown || h('tr', { class: 'test-result', 'data-test-for': c.name });
    if (!shown) row.after(out);
    fill(out, [h('td', { colspan: '7', text: 'Testing ' + c.name + '\\u2026' })]);
    try {
      var r = await send('POST', '/api/console/admin/channels/test', { name: c.name });
      clearError();
      fill(out, [h('td', { colspan: '7' }, [
        h('span', { class: 'pill ' + (r.ok ? 'ok' : 'bad'), text: r.ok ? 'OK' : (r.error_code || 'failed') }), ' ',
        h('span', { class: 'faint', text: (r.status === null ? 'no HTTP status' : 'HTTP ' + r.status) + ', ' + num.format(r.latency_ms) + ' ms, model ' + r.model + ' as ' + r.upstream_model + ': ' }),
        h('code', { class: 'test-line', text: r.message }),
      ])]);
    } catch (err) {
      out.remove();
      failed('Could not test ' + c.name, err);
    }
  }

  /** The row's settings as a small form in place: Save sends only what was changed; an empty key field keeps the key. */
  function editChannelRow(c, row) {
    var open = document.querySelector('#channels tr[data-edit-for]');
    if (open) open.remove();
    var values = { 'base-url': c.base_url || '', models: modelsText(c.models), priority: String(c.priority), weight: String(c.weight), timeout: String(c.timeout_ms), proxy: c.proxy || '' };
    var inputs = DATA.channelFields.map(function (f) {
      var input = h('input', { name: f[0], type: f[2] === 'number' ? 'number' : 'text', 'aria-label': f[1] + ' of ' + c.name, spellcheck: 'false', autocapitalize: 'off' });
      input.value = values[f[0]];
      return h('div', null, [h('label', { text: f[1] }), input]);
    });
    var key = h('input', { name: 'key', type: 'password', autocomplete: 'new-password', 'aria-label': 'New API key of ' + c.name, placeholder: c.api_key.set ? 'empty: keep the key' : 'no key set' });
    var responses = h('select', { name: 'responses', 'aria-label': 'Responses API of ' + c.name }, [['', 'by base URL'], ['yes', 'yes'], ['no', 'no']].map(function (o) { return h('option', { value: o[0], text: o[1] }); }));
    responses.value = c.responses_api === null ? '' : c.responses_api ? 'yes' : 'no';
    var form = h('form', { class: 'filters edit-channel', autocomplete: 'off' }, inputs.concat([
      h('div', null, [h('label', { text: 'New API key' }), key]), h('div', null, [h('label', { text: 'Responses API' }), responses]),
      h('div', { class: 'actions' }, [h('button', { class: 'btn small primary', type: 'submit', text: 'Save' }), action('Cancel', null, function () { editRow.remove(); })]),
    ]));
    var editRow = h('tr', { 'data-edit-for': c.name }, [h('td', { colspan: '7' }, [form])]);
    row.after(editRow);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var changed = channelSettings(function (f) { return form.elements[f].value; }, true);
      var body = { name: c.name };
      for (var k in changed) if (JSON.stringify(changed[k]) !== JSON.stringify(c[k])) body[k] = changed[k];
      if (key.value) body.api_key = key.value;
      key.value = '';
      channelChange('update', body, function (a) { return 'Channel ' + a.channel.name + ' is saved; the next request uses it.'; });
    });
    form.elements['base-url'].focus();
  }

  function channelActions(c) {
    return [
      action('Test', null, function () { testChannelRow(c, this.closest('tr')); }),
      action('Edit', null, function () { editChannelRow(c, this.closest('tr')); }),
      c.status === 'enabled'
        ? action('Disable', null, function () { channelChange('disable', { name: c.name }, function () { return 'Channel ' + c.name + ' is disabled: it serves nothing until enabled.'; }); })
        : action('Enable', null, function () { channelChange('enable', { name: c.name }, function () { return 'Channel ' + c.name + ' is enabled.'; }); }),
      action('Delete', 'danger', function () {
        confirmIn(this.parentNode, 'Delete channel ' + c.name + '? Its models are no longer served by it.', 'Delete', function () {
          channelChange('delete', { name: c.name }, function () { return 'Channel ' + c.name + ' is deleted.'; });
        });
      }),
    ];
  }

  function channelRow(c) {
    return h('tr', { 'data-channel': c.name }, [
      h('td', null, [h('b', { text: c.name }), h('span', { class: 'pill neutral tag', text: c.type })]),
      h('td', null, [h('code', { class: 'faint', text: c.base_url || '(offline)' }), c.proxy ? h('div', { class: 'faint', text: 'via ' + c.proxy }) : null]),
      h('td', { class: 'models-cell', text: modelsText(c.models) }),
      h('td', { class: 'nowrap', text: 'priority ' + c.priority + ', weight ' + c.weight + ', ' + num.format(c.timeout_ms) + ' ms' }),
      h('td', { class: 'nowrap', text: c.api_key.set ? 'set' + (c.api_key.last4 ? ' (\\u2026' + c.api_key.last4 + ')' : '') : 'none' }),
      h('td', { title: c.health.last_failure ? 'last failure: ' + c.health.last_failure : null }, [
        h('span', { class: 'pill ' + (c.status !== 'enabled' ? 'bad' : c.health.cooling_down_until ? 'warn' : 'ok'), text: c.status }),
        h('div', { class: 'faint health', text: healthText(c) }),
        c.health.last_failure ? h('div', { class: 'faint last-failure', text: 'last: ' + c.health.last_failure }) : null,
      ]),
      h('td', null, [h('div', { class: 'actions' }, channelActions(c))]),
    ]);
  }

  function renderChannels(list) {
    if (list.length === 0) { fill($('channels'), [h('div', { class: 'empty', text: 'No channel yet. Add one above.' })]); return; }
    fill($('channels'), [h('div', { class: 'table-wrap' }, [h('table', null, [
      h('thead', null, [h('tr', null, ['Channel', 'Base URL', 'Models', 'Routing', 'Key', 'Status and health', ''].map(function (t) { return h('th', { text: t }); }))]),
      h('tbody', null, list.map(channelRow)),
    ])])]);
  }

  $('channel-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var body = channelSettings(function (f) { return $('channel-' + f).value; }, false);
    body.name = $('channel-name').value.trim();
    body.type = $('channel-type').value;
    if (!body.models) body.models = {};
    if ($('channel-key').value.trim()) body.api_key = $('channel-key').value.trim();
    $('channel-key').value = '';
    $('channel-add-button').disabled = true;
    try {
      var answer = await send('POST', '/api/console/admin/channels', body);
      $('channel-form').reset();
      clearError();
      var said = ['Channel ' + answer.channel.name + ' is added, serving ' + Object.keys(answer.channel.models).join(', ') + '.'];
      if (answer.unpriced.length > 0) {
        said.push(' No price yet for ' + answer.unpriced.join(', ') + ': not served until priced. ');
        said.push(action('Price ' + answer.unpriced[0], 'primary', function () { openView('prices'); pricePrefill(answer.unpriced[0], null); }));
      }
      channelsNotice(said);
    } catch (err) {
      failed('Could not add the channel', err);
    } finally {
      $('channel-add-button').disabled = false;
    }
    await loadChannels();
  });
  $('channels-refresh').addEventListener('click', loadChannels);

  /** After sign-in and sign-out: the view emptied, no key left in a field. */
  function resetChannels() {
    fill($('channels'), []);
    $('channel-form').reset();
    $('channels-done').hidden = true;
  }
`;

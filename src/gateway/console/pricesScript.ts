/**
 * The console script's part for the admins' Models & prices view (issue 10): GET /api/console/admin/models
 * (search as you type, a late answer to an older search dropped), every model with its prices, kind,
 * context, tools and channels, the ones a channel serves without a price marked with their fix (a Set
 * price button that fills the form); the form (POST .../models/price) takes per million token prices, a
 * price per image with variants ("1024x1792=0.08, hd=0.12") or free, showing the fields of the kind
 * chosen. It runs inside script.ts's function after channelsScript.ts, with their helpers (h, fill, $, send,
 * action, failed, usd, num, latestSearch). Every value goes into the DOM as text.
 */
export const PRICES_JS = `
  // ---- models and prices (admins) ----
  var pricesTimer = null;

  /** The form's fields for the kind chosen: token prices, input alone (embeddings) or per image; none when free. */
  function priceFieldsShown() {
    var kind = $('price-kind').value;
    var free = $('price-free').checked;
    Array.prototype.forEach.call(document.querySelectorAll('#price-form [data-for]'), function (el) {
      var f = el.getAttribute('data-for');
      el.hidden = free || (f === 'image' ? kind !== 'image' : f === 'tokens' ? kind === 'image' : kind !== 'chat' && kind !== 'completion');
    });
  }
  $('price-kind').addEventListener('change', priceFieldsShown);
  $('price-free').addEventListener('change', priceFieldsShown);

  /** The form filled for 'name' (its current prices when 'm' is given), and brought into view. */
  function pricePrefill(name, m) {
    $('price-form').reset();
    $('price-model').value = name;
    if (m && m.kind) {
      $('price-kind').value = m.kind;
      $('price-free').checked = m.free;
      var plain = function (money) { return money && !m.free ? money.usd : ''; };
      $('price-input').value = plain(m.input_per_million);
      $('price-output').value = plain(m.output_per_million);
      $('price-cached').value = plain(m.cached_input_per_million);
      $('price-cache-write').value = plain(m.cache_write_per_million);
      $('price-image').value = plain(m.per_image);
      $('price-variants').value = m.per_image_variants ? Object.keys(m.per_image_variants).map(function (k) { return k + '=' + m.per_image_variants[k].usd; }).join(', ') : '';
      $('price-context').value = m.context_length ? String(m.context_length) : '';
      $('price-tools').value = m.tool_calling === null ? '' : m.tool_calling ? 'yes' : 'no';
    }
    priceFieldsShown();
    $('price-form').scrollIntoView({ block: 'nearest' });
    $((m && m.kind === 'image') ? 'price-image' : 'price-input').focus();
  }

  /** What the form says, as the API takes it: what is shown and typed; the gateway checks the rules. */
  function priceBody() {
    var body = { model: $('price-model').value.trim(), kind: $('price-kind').value };
    var val = function (id) { return $(id).value.trim().replace(/^\\$/, ''); };
    if ($('price-free').checked) body.free = true;
    else {
      var shown = function (id) { return !$(id).parentNode.hidden && val(id) !== ''; };
      [['price-input', 'input_usd'], ['price-output', 'output_usd'], ['price-cached', 'cached_input_usd'], ['price-cache-write', 'cache_write_usd'], ['price-image', 'per_image_usd']]
        .forEach(function (f) { if (shown(f[0])) body[f[1]] = val(f[0]); });
      if (shown('price-variants')) {
        body.per_image_variants_usd = {};
        val('price-variants').split(',').forEach(function (part) {
          var at = part.lastIndexOf('=');
          if (part.trim()) body.per_image_variants_usd[(at < 0 ? part : part.slice(0, at)).trim()] = at < 0 ? '' : part.slice(at + 1).trim().replace(/^\\$/, '');
        });
      }
    }
    if (val('price-context')) body.context_length = Number(val('price-context'));
    if ($('price-tools').value) body.tool_calling = $('price-tools').value === 'yes';
    return body;
  }

  $('price-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    $('price-button').disabled = true;
    try {
      var m = (await send('POST', '/api/console/admin/models/price', priceBody())).model;
      clearError();
      $('price-form').reset();
      priceFieldsShown();
      $('prices-done').textContent = m.name + ' is priced: ' + priceText(m).join(', ') + (m.served ? '. Clients can use it now.' : '. No enabled channel serves it yet.');
      $('prices-done').hidden = false;
    } catch (err) {
      failed('Could not set the price', err);
    } finally {
      $('price-button').disabled = false;
    }
    await loadPrices();
  });

  function priceText(m) {
    if (!m.priced) return ['no price'];
    if (m.free) return ['free'];
    if (m.kind === 'image') {
      var variants = m.per_image_variants ? Object.keys(m.per_image_variants).map(function (k) { return usd(m.per_image_variants[k]) + ' for ' + k; }) : [];
      return [usd(m.per_image) + ' / image'].concat(variants);
    }
    var out = [usd(m.input_per_million) + ' in'];
    if (m.output_per_million) out.push(usd(m.output_per_million) + ' out');
    if (m.cached_input_per_million) out.push(usd(m.cached_input_per_million) + ' cached');
    if (m.cache_write_per_million) out.push(usd(m.cache_write_per_million) + ' cache write');
    return [out.join(' / ') + ' per 1M tokens'];
  }

  function priceRow(m) {
    var unpriced = !m.priced;
    return h('tr', unpriced ? { 'data-model': m.name, class: 'unpriced' } : { 'data-model': m.name }, [
      h('td', null, [h('code', { text: m.name }), unpriced ? h('span', { class: 'pill warn tag', text: 'no price' }) : m.free ? h('span', { class: 'pill neutral tag', text: 'free' }) : null]),
      h('td', { text: m.kind || '\\u2014' }),
      h('td', { class: 'prices-cell', text: unpriced ? 'Not served until priced: set a price, or mark it free.' : priceText(m).join('; ') }),
      h('td', { class: 'num', text: m.context_length ? num.format(m.context_length) : '\\u2014' }),
      h('td', { text: m.tool_calling === null ? '\\u2014' : m.tool_calling ? 'yes' : 'no' }),
      h('td', { text: m.channels.length ? m.channels.join(', ') + (m.served ? '' : ' (disabled)') : 'none' }),
      h('td', null, [h('div', { class: 'actions' }, [action(unpriced ? 'Set price' : 'Edit price', unpriced ? 'primary' : null, function () { pricePrefill(m.name, m); })])]),
    ]);
  }

  async function loadPrices() {
    try {
      var found = await latestSearch('/api/console/admin/models', 'prices-q');
      if (!found) return;
      var list = found.list;
      var q = found.q;
      var missing = list.filter(function (m) { return !m.priced; });
      var one = missing.length === 1;
      $('prices-unpriced').textContent = missing.length === 0 ? '' : missing.length + (one ? ' model is served by a channel but has no price, so the gateway refuses it' : ' models are served by a channel but have no price, so the gateway refuses them') +
        ' (model_not_priced): ' + missing.map(function (m) { return m.name; }).join(', ') + (one ? '. Press Set price on its row.' : '. Press Set price on their rows.');
      $('prices-unpriced').hidden = missing.length === 0;
      $('prices-count').textContent = list.length + (list.length === 1 ? ' model' : ' models') + (q ? ' match "' + q + '".' : ' priced or served by a channel.');
      if (list.length === 0) { fill($('prices'), [h('div', { class: 'empty', text: q ? 'No model name contains "' + q + '".' : 'No model yet: add a channel, then price its models.' })]); return; }
      fill($('prices'), [h('div', { class: 'table-wrap' }, [h('table', null, [
        h('thead', null, [h('tr', null, [['Model'], ['Kind'], ['Price'], ['Context', 'num'], ['Tools'], ['Channels'], ['']].map(function (c) { return h('th', { class: c[1] || null, text: c[0] }); }))]),
        h('tbody', null, missing.concat(list.filter(function (m) { return m.priced; })).map(priceRow)),
      ])])]);
    } catch (err) {
      failed('Could not list the models', err);
    }
  }
  $('prices-q').addEventListener('input', function () {
    clearTimeout(pricesTimer);
    pricesTimer = setTimeout(loadPrices, 120);
  });
  $('prices-refresh').addEventListener('click', loadPrices);

  /** After sign-in and sign-out: the view emptied. */
  function resetPrices() {
    fill($('prices'), []);
    $('price-form').reset(); $('prices-q').value = '';
    $('prices-done').hidden = true; $('prices-unpriced').hidden = true;
    priceFieldsShown();
  }
`;

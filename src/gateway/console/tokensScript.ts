/**
 * The console script's part for admin access tokens (issue 10), admins only: the Tokens view (POST
 * /api/console/admin/tokens: the token shown once with a copy button and a curl example, forgotten at "I
 * have copied it"; GET /api/console/admin/tokens; POST /api/console/admin/tokens/revoke {id} after a
 * confirmation). It runs inside script.ts's function after userViewsScript.ts, with their helpers (h,
 * fill, $, send, copyButton, confirmIn, action, failed, when, base). A token is never stored by the page;
 * every value goes into the DOM as text.
 */
export const TOKENS_JS = `
  // ---- admin access tokens (admins) ----
  function forgetToken() {
    $('new-token').hidden = true;
    $('new-token-value').textContent = '';
    $('new-token-example').textContent = '';
    fill($('new-token-copy'), []);
  }
  function showToken(answer) {
    $('new-token-name').textContent = answer.admin_token.name;
    $('new-token-value').textContent = answer.token;
    fill($('new-token-copy'), [copyButton(answer.token, 'admin access token')]);
    $('new-token-example').textContent = 'curl ' + base + '/api/console/admin/users \\\\\\n  -H "Authorization: Bearer ' + answer.token + '"';
    $('new-token').hidden = false;
  }
  $('new-token-done').addEventListener('click', forgetToken);

  $('new-token-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var body = { name: $('new-token-input-name').value.trim() };
    if ($('new-token-expires').value) body.expires_at = new Date($('new-token-expires').value + 'T23:59:59').toISOString();
    $('new-token-button').disabled = true;
    try {
      showToken(await send('POST', '/api/console/admin/tokens', body));
      clearError();
      $('new-token-form').reset();
      await loadTokens();
    } catch (err) {
      failed('Could not create the token', err);
    } finally {
      $('new-token-button').disabled = false;
    }
  });

  var TOKEN_PILLS = { active: 'ok', expired: 'warn', revoked: 'bad' };
  function tokenRow(t) {
    var cell = h('td', null, t.status === 'revoked' ? [] : [h('div', { class: 'actions' }, [
      action('Revoke', 'danger', function () { confirmIn(this.parentNode, 'Revoke ' + t.name + '? Scripts using it are refused at once.', 'Revoke', function () { revokeToken(t.id); }); }),
    ])]);
    return h('tr', { 'data-token-name': t.name, 'data-token-id': String(t.id) }, [
      h('td', null, [h('b', { text: t.name })]),
      h('td', null, [h('code', { class: 'faint', text: t.prefix })]),
      h('td', null, [h('span', { class: 'pill ' + TOKEN_PILLS[t.status], text: t.status })]),
      h('td', { text: t.created_by || '\\u2014' }),
      h('td', { class: 'nowrap', text: when(t.created_at) }),
      h('td', { class: 'nowrap', text: t.last_used_at ? when(t.last_used_at) : 'never' }),
      h('td', { class: 'nowrap', text: t.expires_at ? new Date(t.expires_at).toLocaleDateString() : 'never' }),
      cell,
    ]);
  }
  async function loadTokens() {
    try {
      var page = await send('GET', '/api/console/admin/tokens');
      if (page.data.length === 0) { fill($('tokens'), [h('div', { class: 'empty', text: 'No admin access tokens yet. Create one above; it is shown once.' })]); return; }
      fill($('tokens'), [h('div', { class: 'table-wrap' }, [h('table', null, [
        h('thead', null, [h('tr', null, ['Name', 'Token', 'Status', 'Acts as', 'Created', 'Last used', 'Expires', ''].map(function (t) { return h('th', { text: t }); }))]),
        h('tbody', null, page.data.map(tokenRow)),
      ])])]);
    } catch (err) {
      failed('Could not list the tokens', err);
    }
  }
  async function revokeToken(id) {
    try {
      await send('POST', '/api/console/admin/tokens/revoke', { id: id });
      clearError();
    } catch (err) {
      failed('Could not revoke the token', err);
    }
    await loadTokens();
  }
  $('tokens-refresh').addEventListener('click', loadTokens);

  /** After sign-in and sign-out: no token left on the page. */
  function resetTokens() {
    forgetToken();
    fill($('tokens'), []);
    $('new-token-form').reset();
  }
`;

/**
 * The console script's part for admins (issue 10): the Users view (GET /api/console/admin/users with
 * search and More; create a user; disable or revoke admin after a confirmation; enable, make admin;
 * reset a password and top up through a small form in the row: a password typed there is sent once
 * and never shown back) and the Audit view (GET /api/console/admin/audit, by actor and action, Older).
 * It runs inside script.ts's function after userViewsScript.ts, with their helpers (h, fill, $, send,
 * action, confirmIn, failed, when, usd). Names, amounts and audit details go into the DOM as text only.
 */
export const ADMIN_JS = `
  var adminSelf = null;
  var usersNext = null;
  var usersAsked = 0;
  var usersTimer = null;
  var auditNext = null;

  /** After sign-in and sign-out: the admin tabs shown to admins only, the admin views emptied. */
  function resetAdmin(user) {
    adminSelf = user && user.admin ? user.name : null;
    Array.prototype.forEach.call(document.querySelectorAll('.admin-only'), function (el) { el.hidden = adminSelf === null; });
    fill($('users'), []); fill($('audit'), []);
    $('users-q').value = ''; $('new-user-form').reset(); $('audit-filters').reset();
    $('users-more').hidden = true; $('audit-older').hidden = true; $('users-done').hidden = true;
    usersNext = null; auditNext = null;
  }

  function notice(text) {
    $('users-done').textContent = text;
    $('users-done').hidden = false;
  }

  // ---- users ----
  async function loadUsers(more) {
    if (more && usersNext === null) return;
    var asked = ++usersAsked;
    var p = new URLSearchParams();
    if ($('users-q').value.trim()) p.set('q', $('users-q').value.trim());
    if (more) p.set('after', String(usersNext));
    try {
      var page = await send('GET', '/api/console/admin/users' + (p.toString() ? '?' + p.toString() : ''));
      if (asked !== usersAsked) return;
      usersNext = page.next_after;
      $('users-more').hidden = usersNext === null;
      renderUsers(page.data, more);
    } catch (err) {
      failed('Could not list the users', err);
    }
  }

  /** A small form in the row's actions cell (a new password, an amount): sent once, then emptied. */
  function askIn(cell, kind, label, yes, run) {
    var back = Array.prototype.slice.call(cell.childNodes);
    var input = h('input', {
      class: 'inline-input', type: kind === 'password' ? 'password' : 'text', 'aria-label': label, required: '',
      placeholder: kind === 'password' ? 'new password, 10+ characters' : 'USD, e.g. 10.50', autocomplete: kind === 'password' ? 'new-password' : 'off',
      inputmode: kind === 'amount' ? 'decimal' : null, minlength: kind === 'password' ? '10' : null,
    });
    var form = h('form', { class: 'inline-ask' }, [input, h('button', { class: 'btn small primary', type: 'submit', text: yes }), action('Cancel', null, function () { fill(cell, back); })]);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var value = input.value;
      input.value = '';
      run(value);
    });
    fill(cell, [form]);
    input.focus();
  }

  /** After a change to oneself (password reset, demotion): the page follows the session as it now is. */
  async function followSelf(name) {
    if (name !== adminSelf) return loadUsers(false);
    var answer = null;
    try { answer = await send('GET', '/api/console/session'); } catch (err) { answer = null; }
    if (!answer || !answer.user) return userSignedOut({ message: 'Your session ended with this change. Sign in again.' });
    return showUser(answer.user);
  }

  async function userChange(what, body, done) {
    try {
      await send('POST', '/api/console/admin/users/' + what, body);
      clearError();
      notice(done);
    } catch (err) {
      return failed('Could not change ' + body.name, err);
    }
    await followSelf(body.name);
  }

  async function topUp(account, value) {
    try {
      var answer = await send('POST', '/api/console/admin/accounts/topup', { account: account, amount_usd: value.trim() });
      clearError();
      notice('Added ' + usd(answer.amount) + ' to account ' + answer.account.name + ': its balance is ' + usd(answer.account.balance) + '.');
    } catch (err) {
      failed('Could not top up ' + account, err);
    }
    await loadUsers(false);
  }

  function userActions(u) {
    return [
      u.status === 'enabled'
        ? action('Disable', 'danger', function () { confirmIn(this.parentNode, 'Disable ' + u.name + '? Their sessions end now.', 'Disable', function () { userChange('disable', { name: u.name }, u.name + ' is disabled; their sessions ended.'); }); })
        : action('Enable', null, function () { userChange('enable', { name: u.name }, u.name + ' is enabled.'); }),
      action('Reset password', null, function () {
        askIn(this.parentNode, 'password', 'New password for ' + u.name, 'Set password', function (value) { userChange('password', { name: u.name, password: value }, 'The password of ' + u.name + ' is changed; their sessions ended.'); });
      }),
      u.admin
        ? action('Revoke admin', 'danger', function () { confirmIn(this.parentNode, 'Revoke admin of ' + u.name + '?', 'Revoke', function () { userChange('admin', { name: u.name, admin: false }, u.name + ' is no longer an admin.'); }); })
        : action('Make admin', null, function () { confirmIn(this.parentNode, 'Make ' + u.name + ' an admin?', 'Make admin', function () { userChange('admin', { name: u.name, admin: true }, u.name + ' is now an admin.'); }); }),
      u.account ? action('Top up', null, function () { askIn(this.parentNode, 'amount', 'USD to add to account ' + u.account, 'Add', function (value) { topUp(u.account, value); }); }) : null,
    ];
  }

  function userRow(u) {
    return h('tr', { 'data-user': u.name }, [
      h('td', null, [h('b', { text: u.name }), u.admin ? h('span', { class: 'pill neutral tag', text: 'admin' }) : null]),
      h('td', { text: u.account || '\\u2014' }),
      h('td', { class: 'num', text: u.balance ? usd(u.balance) : '\\u2014' }),
      h('td', null, [h('span', { class: 'pill ' + (u.status === 'enabled' ? 'ok' : 'bad'), text: u.status })]),
      h('td', { class: 'nowrap', text: when(u.created_at) }),
      h('td', { class: 'nowrap', text: u.last_sign_in_at ? when(u.last_sign_in_at) : 'never' }),
      h('td', null, [h('div', { class: 'actions' }, userActions(u))]),
    ]);
  }

  function renderUsers(list, more) {
    var body = more ? document.querySelector('#users tbody') : null;
    if (body) { list.forEach(function (u) { body.append(userRow(u)); }); return; }
    if (list.length === 0) {
      fill($('users'), [h('div', { class: 'empty', text: $('users-q').value.trim() ? 'No user or account name contains this.' : 'No users yet.' })]);
      return;
    }
    fill($('users'), [h('div', { class: 'table-wrap' }, [h('table', null, [
      h('thead', null, [h('tr', null, [['User'], ['Account'], ['Balance', 'num'], ['Status'], ['Created'], ['Last sign-in'], ['']].map(function (c) { return h('th', { class: c[1] || null, text: c[0] }); }))]),
      h('tbody', null, list.map(userRow)),
    ])])]);
  }

  $('new-user-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var body = { name: $('new-user-name').value.trim(), password: $('new-user-password').value };
    if ($('new-user-account').value.trim()) body.account = $('new-user-account').value.trim();
    if ($('new-user-admin').checked) body.admin = true;
    $('new-user-button').disabled = true;
    try {
      var answer = await send('POST', '/api/console/admin/users', body);
      $('new-user-form').reset();
      clearError();
      notice('User ' + answer.user.name + ' is created, on account ' + answer.user.account + '.');
    } catch (err) {
      $('new-user-password').value = '';
      failed('Could not create the user', err);
    } finally {
      $('new-user-button').disabled = false;
    }
    await loadUsers(false);
  });
  $('users-q').addEventListener('input', function () {
    clearTimeout(usersTimer);
    usersTimer = setTimeout(function () { loadUsers(false); }, 120);
  });
  $('users-refresh').addEventListener('click', function () { loadUsers(false); });
  $('users-more').addEventListener('click', function () { loadUsers(true); });

  // ---- audit ----
  fill($('audit-action'), [h('option', { value: '', text: 'Any action' })].concat(DATA.auditActions.map(function (a) { return h('option', { value: a, text: a }); })));

  function detailsText(d) {
    if (!d) return '\\u2014';
    return Object.keys(d).map(function (k) { return k + ': ' + (d[k] !== null && typeof d[k] === 'object' ? JSON.stringify(d[k]) : String(d[k])); }).join(', ');
  }
  function auditRow(r) {
    return h('tr', { 'data-audit-id': String(r.id), 'data-action': r.action }, [
      h('td', { class: 'nowrap', title: r.time, text: when(r.time) }),
      h('td', null, [h('b', { text: r.actor }), r.via_token ? h('span', { class: 'faint via-token', text: ' via token ' + r.via_token }) : null]),
      h('td', null, [h('code', { text: r.action })]),
      h('td', { class: 'target', text: r.target }),
      h('td', { class: 'details', text: detailsText(r.details) }),
    ]);
  }
  async function loadAudit(older) {
    if (older && auditNext === null) return;
    var p = new URLSearchParams();
    if ($('audit-actor').value.trim()) p.set('actor', $('audit-actor').value.trim());
    if ($('audit-action').value) p.set('action', $('audit-action').value);
    if (older) p.set('before', String(auditNext));
    try {
      var page = await send('GET', '/api/console/admin/audit' + (p.toString() ? '?' + p.toString() : ''));
      auditNext = page.next_before;
      $('audit-older').hidden = auditNext === null;
      var body = older ? document.querySelector('#audit tbody') : null;
      if (body) { page.data.forEach(function (r) { body.append(auditRow(r)); }); return; }
      if (page.data.length === 0) { fill($('audit'), [h('div', { class: 'empty', text: 'No admin action matches.' })]); return; }
      fill($('audit'), [h('div', { class: 'table-wrap' }, [h('table', null, [
        h('thead', null, [h('tr', null, ['Time', 'Actor', 'Action', 'Target', 'Details'].map(function (t) { return h('th', { text: t }); }))]),
        h('tbody', null, page.data.map(auditRow)),
      ])])]);
      clearError();
    } catch (err) {
      failed('Could not read the audit log', err);
    }
  }
  $('audit-filters').addEventListener('submit', function (event) { event.preventDefault(); loadAudit(false); });
  $('audit-action').addEventListener('change', function () { loadAudit(false); });
  $('audit-older').addEventListener('click', function () { loadAudit(true); });
`;

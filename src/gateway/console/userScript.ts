/**
 * The console script's part for people signed in with a user name and password (issue 10): sign-in,
 * first-admin setup, and the keys view (its list and forms: keysScript.ts). It runs inside script.ts's function, with its helpers (h, fill,
 * $, base, request, showError, clearError, copyButton, when). The session is an HttpOnly cookie the
 * script never sees; every request that changes something says it comes from the console page
 * (X-Model-Gateway-Console, beside the Origin the browser adds). A new key's secret lives only in the
 * DOM until "I have copied it" and is never stored by the page.
 */
export const USER_JS = `
  var userMode = false;
  function showUserError(title, err) {
    var box = $('alert');
    box.className = 'alert';
    fill(box, [h('h3', { text: title }), h('p', { text: err.message || err.detail || 'HTTP ' + err.status })]);
    box.hidden = false;
  }

  function showUser(user) {
    userMode = true;
    clearError();
    $('signin').hidden = true; $('setup').hidden = true; $('app').hidden = true;
    $('keys-app').hidden = false; $('who').hidden = false;
    fill($('who-key'), [user.name + (user.admin ? ' (admin)' : '') + ' ']);
    $('keys-account').textContent = user.account ? 'Keys of account ' + user.account + '. Requests made with them are charged to it.' : '';
    resetViews(user);
    return loadKeys();
  }

  async function loadKeys() {
    try {
      var both = await Promise.all([send('GET', '/api/console/keys'), send('GET', '/api/console/account')]);
      renderKeys(both[0].data);
      $('account-balance').textContent = usd(both[1].account.balance.remaining);
      $('account-used').textContent = '(' + usd(both[1].account.balance.used) + ' used)';
    } catch (err) {
      if (err.status === 401) return userSignedOut(err);
      showUserError('Could not list the keys', err);
    }
  }

  function action(label, cls, run) {
    var b = h('button', { class: 'btn small' + (cls ? ' ' + cls : ''), type: 'button', text: label });
    b.addEventListener('click', run);
    return b;
  }

  /** Delete and rotate ask first: the row's buttons become the question and its answers. */
  function confirmIn(cell, question, yes, run) {
    var back = Array.prototype.slice.call(cell.childNodes);
    fill(cell, [h('span', { class: 'confirm', text: question }), action(yes, 'danger', run), action('Cancel', null, function () { fill(cell, back); })]);
  }

  async function keyAction(name, id) {
    try {
      var answer = await send('POST', '/api/console/keys/' + name, { id: id });
      if (answer.secret) showSecret(answer);
      clearError();
    } catch (err) {
      if (err.status === 401) return userSignedOut(err);
      showUserError('Could not ' + name + ' the key', err);
    }
    await loadKeys();
  }

  function showSecret(answer) {
    $('new-secret-name').textContent = answer.key.name;
    $('new-secret-value').textContent = answer.secret;
    fill($('new-secret-copy'), [copyButton(answer.secret, 'API key')]);
    $('new-secret-base').textContent = answer.snippets.base_url;
    fill($('new-secret-base-copy'), [copyButton(answer.snippets.base_url, 'base URL')]);
    fill($('snippets'), [['curl', answer.snippets.curl], ['Python (openai)', answer.snippets.python], ['Node (openai)', answer.snippets.node]].map(function (s) {
      return h('div', { class: 'snippet' }, [h('h3', null, [s[0], copyButton(s[1], s[0] + ' snippet')]), h('pre', { text: s[1] })]);
    }));
    $('new-secret').hidden = false;
  }
  function forgetSecret() {
    $('new-secret').hidden = true;
    $('new-secret-value').textContent = '';
    fill($('new-secret-copy'), []); fill($('snippets'), []);
  }

  $('new-secret-done').addEventListener('click', forgetSecret);
  $('keys-refresh').addEventListener('click', loadKeys);

  $('user-signin-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    $('user-signin-button').disabled = true;
    try {
      var answer = await send('POST', '/api/console/login', { name: $('user-name').value.trim(), password: $('user-password').value });
      $('user-password').value = '';
      await showUser(answer.user);
    } catch (err) {
      showUserError(err.status === 429 ? 'Too many failed sign-ins' : 'Sign-in failed', err);
    } finally {
      $('user-signin-button').disabled = false;
    }
  });

  $('setup-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var token = location.hash.slice('#setup='.length);
    try {
      var answer = await send('POST', '/api/console/setup', { token: token, name: $('setup-name').value.trim(), password: $('setup-password').value });
      $('setup-password').value = '';
      history.replaceState(null, '', location.pathname);
      await showUser(answer.user);
    } catch (err) {
      showUserError('Could not create the admin', err);
    }
  });

  function userSignedOut(err) {
    userMode = false;
    forgetSecret();
    $('keys-app').hidden = true; $('who').hidden = true; $('signin').hidden = false;
    fill($('keys'), []);
    $('account-balance').textContent = '\\u2014'; $('account-used').textContent = '';
    resetViews(null);
    if (err) showUserError('Signed out', err);
    $('user-name').focus();
  }
  async function userSignOut() {
    try { await send('POST', '/api/console/logout'); } catch (err) { /* the cookie is cleared by the answer; nothing else to undo */ }
    clearError();
    userSignedOut(null);
  }

  /** At start: the setup form for a setup link, else the session if the browser has one. True when it took over the page. */
  async function startUser() {
    if (location.hash.indexOf('#setup=') === 0) {
      $('signin').hidden = true; $('setup').hidden = false;
      $('setup-name').focus();
      return true;
    }
    try {
      var answer = await send('GET', '/api/console/session');
      if (!answer.user) return false;
      await showUser(answer.user);
      return true;
    } catch (err) {
      return false;
    }
  }
`;

/**
 * The device approval page's script (devicePage.ts). Plain browser JavaScript in a string, with the
 * console's helpers; every server value goes into the DOM as text. The session is the console's
 * HttpOnly cookie: signing in here signs in to the console too. The page never sees the device code
 * or the key: it only answers the request named by the user code.
 */
import { HELPERS_JS } from './helpersScript.ts';

export const DEVICE_JS = `
(function () {
  'use strict';
  var base = location.origin + location.pathname.replace(/\\/device\\/*$/, '');
${HELPERS_JS}
  var STEPS = ['device-signin', 'device-code', 'device-request', 'device-done'];
  var current = null;

  function show(id) { STEPS.forEach(function (s) { $(s).hidden = s !== id; }); }
  function showAlert(title, err) {
    var box = $('alert');
    fill(box, [h('h3', { text: title }), h('p', { text: err.message || err.detail || 'HTTP ' + err.status })]);
    box.hidden = false;
  }
  function clearAlert() { $('alert').hidden = true; }

  function signedOut(err) {
    $('who').hidden = true;
    show('device-signin');
    if (err) showAlert('Signed out', err);
    $('device-user-name').focus();
  }

  async function lookup(code) {
    try {
      current = await send('POST', '/api/console/device/lookup', { user_code: code });
    } catch (err) {
      if (err.status === 401) return signedOut(err);
      showAlert(err.status === 429 ? 'Too many wrong codes' : 'No sign-in is waiting with this code', err);
      show('device-code');
      $('user-code').focus();
      return;
    }
    clearAlert();
    $('device-client').textContent = current.client_name;
    $('device-account').textContent = current.account || '';
    $('device-user-code').textContent = current.user_code;
    fill($('device-models'), current.models.map(function (name) {
      return h('label', { class: 'model-choice' }, [h('input', { type: 'checkbox', value: name }), ' ', h('code', { text: name })]);
    }));
    show('device-request');
    $('device-approve').focus();
  }

  async function answer(approve) {
    var body = { user_code: current.user_code };
    if (approve) {
      var chosen = Array.prototype.slice.call($('device-models').querySelectorAll('input:checked')).map(function (i) { return i.value; });
      if (chosen.length) body.models = chosen;
    }
    $('device-approve').disabled = true; $('device-deny').disabled = true;
    try {
      await send('POST', '/api/console/device/' + (approve ? 'approve' : 'deny'), body);
      clearAlert();
      $('device-done-title').textContent = approve ? 'Approved' : 'Denied';
      $('device-done-text').textContent = approve
        ? current.client_name + ' gets its API key now. You can close this page and return to your editor.'
        : current.client_name + ' gets no key. You can close this page.';
      history.replaceState(null, '', location.pathname);
      show('device-done');
    } catch (err) {
      if (err.status === 401) return signedOut(err);
      showAlert('Could not ' + (approve ? 'approve' : 'deny') + ' the sign-in', err);
      show('device-code');
    } finally {
      $('device-approve').disabled = false; $('device-deny').disabled = false;
    }
  }

  async function start() {
    var session;
    try {
      session = await send('GET', '/api/console/session');
    } catch (err) {
      showAlert('Cannot reach the gateway', err);
      return;
    }
    if (!session.user) return signedOut(null);
    $('who-name').textContent = session.user.name;
    $('who').hidden = false;
    var code = new URLSearchParams(location.search).get('user_code');
    if (code) {
      $('user-code').value = code;
      return lookup(code);
    }
    show('device-code');
    $('user-code').focus();
  }

  $('device-signin-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    $('device-signin-button').disabled = true;
    try {
      await send('POST', '/api/console/login', { name: $('device-user-name').value.trim(), password: $('device-user-password').value });
      $('device-user-password').value = '';
      clearAlert();
      await start();
    } catch (err) {
      showAlert(err.status === 429 ? 'Too many failed sign-ins' : 'Sign-in failed', err);
    } finally {
      $('device-signin-button').disabled = false;
    }
  });
  $('device-code-form').addEventListener('submit', function (event) {
    event.preventDefault();
    lookup($('user-code').value);
  });
  $('device-approve').addEventListener('click', function () { answer(true); });
  $('device-deny').addEventListener('click', function () { answer(false); });

  start();
})();
`;

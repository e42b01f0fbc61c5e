/**
 * The device approval page, /device (RFC 8628's verification URI, contract 4.11): a signed-in user
 * (who signs in here first if needed) enters the code the editor shows, or confirms the one the link
 * carries (?user_code=...), sees which client asks and for which account, optionally narrows the
 * models, and approves or denies. The same document rules as the console (page.ts: inline style and
 * script by hash, nothing from elsewhere); its script is deviceScript.ts.
 */
import { DEVICE_JS } from './deviceScript.ts';
import { htmlPage, type ConsolePage } from './page.ts';
import { credentialsForm } from './userPage.ts';

const BODY = `
<header class="top"><div class="wrap top-in">
  <div class="brand"><span class="mark" aria-hidden="true"></span><span><b>Model Gateway</b><small>Connect a device</small></span></div>
  <div class="who" id="who" hidden><span class="chip" id="who-name"></span></div>
</div></header>
<main class="wrap">
  <div id="alert" class="alert" role="alert" hidden></div>

  <section id="device-signin" class="card signin" aria-labelledby="device-signin-title" hidden>
    <h1 id="device-signin-title">Sign in to connect a device</h1>
    <p class="muted">An editor asked this gateway for an API key. Sign in with your user name and password, then approve or deny it.</p>
    ${credentialsForm('device-signin-form', 'device-user', 'current-password', '<button class="btn primary" id="device-signin-button" type="submit">Sign in</button>')}
  </section>

  <section id="device-code" class="card signin" aria-labelledby="device-code-title" hidden>
    <h1 id="device-code-title">Connect a device</h1>
    <p class="muted">Enter the code your editor shows (in VS Code: <b>Model Gateway: Sign In</b>).</p>
    <form id="device-code-form" autocomplete="off">
      <label for="user-code">Code</label>
      <div class="field">
        <input id="user-code" type="text" placeholder="XXXX-XXXX" spellcheck="false" autocapitalize="characters" autocomplete="off" maxlength="32" required>
        <button class="btn primary" id="device-code-button" type="submit">Continue</button>
      </div>
    </form>
  </section>

  <section id="device-request" class="card signin" aria-labelledby="device-request-title" hidden>
    <h1 id="device-request-title">Approve this sign-in?</h1>
    <p><b id="device-client"></b> asks for a new API key of account <b id="device-account"></b>.</p>
    <p>Code <code id="device-user-code"></code></p>
    <p class="hint">Approve only if you started this sign-in yourself, just now, and your editor shows the same code.
      The key appears on your keys page, named after the device; delete it there to sign the device out.</p>
    <fieldset class="body">
      <legend>Models the key may use (none ticked: every model of the account)</legend>
      <div id="device-models"></div>
    </fieldset>
    <p class="actions">
      <button class="btn primary" id="device-approve" type="button">Approve</button>
      <button class="btn danger" id="device-deny" type="button">Deny</button>
    </p>
  </section>

  <section id="device-done" class="card signin" role="status" aria-labelledby="device-done-title" hidden>
    <h1 id="device-done-title"></h1>
    <p id="device-done-text"></p>
  </section>
</main>
`;

let built: ConsolePage | null = null;

export function devicePage(): ConsolePage {
  built ??= htmlPage('Connect a device · Model Gateway', BODY, DEVICE_JS);
  return built;
}

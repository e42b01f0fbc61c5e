/**
 * The console's parts for people who sign in with a user name and password (issue 10): the sign-in
 * form, the first-admin setup form (opened by the link `serve` prints), and the keys view. Static HTML
 * placed by page.ts; userScript.ts brings them to life. Every value from the server goes in as text.
 */
import { AUDIT_VIEW_HTML, USERS_VIEW_HTML } from './adminPage.ts';
import { LOGS_VIEW_HTML, MODELS_VIEW_HTML, PASSWORD_VIEW_HTML, USER_TABS_HTML } from './userViewsPage.ts';
import { CODES_VIEW_HTML, TOPUP_VIEW_HTML } from './codesPage.ts';
import { CHANNELS_VIEW_HTML, PRICES_VIEW_HTML } from './channelsPage.ts';
import { LIMIT_FIELDS_HTML, LIMITS_TEMPLATE_HTML } from './keysScript.ts';
import { TOKENS_VIEW_HTML } from './tokensPage.ts';

/** A user name and password form (ids `${prefix}-name`, `${prefix}-password`), its submit button beside the password. */
export function credentialsForm(formId: string, prefix: string, passwordAutocomplete: 'current-password' | 'new-password', button: string): string {
  return `<form id="${formId}">
      <label for="${prefix}-name">User name</label>
      <input id="${prefix}-name" name="username" type="text" autocomplete="username" spellcheck="false" autocapitalize="off" required>
      <label for="${prefix}-password">Password</label>
      <div class="field">
        <input id="${prefix}-password" name="password" type="password" autocomplete="${passwordAutocomplete}" required>
        ${button}
      </div>
    </form>`;
}

export const USER_SIGNIN_HTML = `
    <h1 id="signin-title">Sign in</h1>
    <p class="muted">With the user name and password your operator gave you, to manage your API keys.</p>
    ${credentialsForm('user-signin-form', 'user', 'current-password', '<button class="btn primary" id="user-signin-button" type="submit">Sign in</button>')}
    <hr class="or">`;

export const SETUP_HTML = `
  <section id="setup" class="card signin" aria-labelledby="setup-title" hidden>
    <h1 id="setup-title">Create the first admin</h1>
    <p class="muted">This gateway has no admin yet. Choose the admin's user name and password (at least 10 characters).
      The link you opened works once, for one hour.</p>
    ${credentialsForm('setup-form', 'setup', 'new-password', '<button class="btn primary" id="setup-button" type="submit">Create admin</button>')}
  </section>`;

export const KEYS_HTML = `
  <section id="keys-app" hidden>${USER_TABS_HTML}
    <div id="view-keys">
    <div id="new-secret" class="card spaced secret" role="status" hidden>
      <header><div><h2>Your new API key <span id="new-secret-name" class="faint"></span></h2>
        <p>Copy it now: it is shown this once and cannot be shown again (rotate the key for a new one).</p></div></header>
      <div class="body">
        <div class="url-row"><span class="what">API key</span><code id="new-secret-value"></code><span id="new-secret-copy"></span></div>
        <div class="url-row"><span class="what">Base URL</span><code id="new-secret-base"></code><span id="new-secret-base-copy"></span></div>
        <div id="snippets"></div>
        <p><button class="btn primary" id="new-secret-done" type="button">I have copied it</button></p>
      </div>
    </div>
    <section class="card spaced" aria-labelledby="keys-title">
      <header><div><h2 id="keys-title">API keys</h2><p id="keys-account"></p></div>
        <div class="toolbar"><span class="balance">Balance <b id="account-balance">\u2014</b> <span class="faint" id="account-used"></span></span>
          <button class="btn" id="keys-refresh" type="button">Refresh</button></div></header>
      <form id="new-key-form" class="body new-key" autocomplete="off">
        <div><label for="new-key-name">Name</label><input id="new-key-name" type="text" placeholder="laptop" spellcheck="false" autocapitalize="off" required></div>
        <div><label for="new-key-models">Models (optional)</label><input id="new-key-models" type="text" placeholder="every model; or: echo, gpt-4o-mini" spellcheck="false" autocapitalize="off"></div>
        <div><label for="new-key-expires">Expires (optional)</label><input id="new-key-expires" type="date"></div>
        <div><label for="new-key-rpm">Requests / min</label><input id="new-key-rpm" type="number" min="1" placeholder="1200"></div>
        <div><label for="new-key-concurrency">At once</label><input id="new-key-concurrency" type="number" min="1" placeholder="64"></div>
        <div><button class="btn primary" id="new-key-button" type="submit">Create key</button></div>
        <div class="limits-row limits-form">${LIMIT_FIELDS_HTML}
        </div>
      </form>${LIMITS_TEMPLATE_HTML}
      <div id="keys"></div>
    </section>
    </div>${MODELS_VIEW_HTML}${LOGS_VIEW_HTML}${TOPUP_VIEW_HTML}${PASSWORD_VIEW_HTML}${USERS_VIEW_HTML}${AUDIT_VIEW_HTML}${CODES_VIEW_HTML}${CHANNELS_VIEW_HTML}${PRICES_VIEW_HTML}${TOKENS_VIEW_HTML}
  </section>`;

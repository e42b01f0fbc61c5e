/**
 * The console's Tokens view, for admins only (issue 10): admin access tokens for scripts. A form makes
 * one (a name, an optional expiry); the new token is shown this once with a copy button and an example
 * call; the list shows every token (never the token itself) with its status, who it acts as and when it
 * was last used, and revokes one after a confirmation. Static HTML placed by userPage.ts; tokensScript.ts
 * brings it to life, every value from the server as text.
 */

export const TOKENS_VIEW_HTML = `
    <div id="view-tokens" hidden>
    <div id="new-token" class="card spaced secret" role="status" hidden>
      <header><div><h2>New admin access token <span id="new-token-name" class="faint"></span></h2>
        <p>Copy it now: it is shown this once and cannot be shown again (only its fingerprint is kept). It acts as you on the admin routes of the management API.</p></div></header>
      <div class="body">
        <div class="url-row"><span class="what">Token</span><code id="new-token-value"></code><span id="new-token-copy"></span></div>
        <div class="snippet"><h3>curl</h3><pre id="new-token-example"></pre></div>
        <p><button class="btn primary" id="new-token-done" type="button">I have copied it</button></p>
      </div>
    </div>
    <section class="card spaced" aria-labelledby="tokens-title">
      <header><div><h2 id="tokens-title">Admin access tokens</h2><p>For scripts that manage this gateway: <code>Authorization: Bearer mgt-…</code> on the admin routes, described by the OpenAPI document at <code id="tokens-openapi">/api/openapi.json</code>. Every change a token makes is in the audit log under its admin and its name.</p></div>
        <div><button class="btn" id="tokens-refresh" type="button">Refresh</button></div></header>
      <form id="new-token-form" class="body filters" autocomplete="off">
        <div><label for="new-token-input-name">Name</label><input id="new-token-input-name" type="text" placeholder="nightly-report" spellcheck="false" autocapitalize="off" required></div>
        <div><label for="new-token-expires">Expires (optional)</label><input id="new-token-expires" type="date"></div>
        <div><button class="btn primary" id="new-token-button" type="submit">Create token</button></div>
      </form>
      <div id="tokens"></div>
    </section>
    </div>`;

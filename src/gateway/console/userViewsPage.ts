/**
 * The signed-in user's views beside the keys (issue 10): the tabs that switch between them, the model
 * catalogue (search as you type), the account's request logs (filters, older pages, CSV with the same
 * filters) and the password change. Static HTML placed by userPage.ts; userViewsScript.ts fills it,
 * every value from the server as text.
 */
import { ADMIN_TABS_HTML } from './adminPage.ts';

export const USER_TABS_HTML = `
    <nav class="tabs" id="user-tabs" aria-label="Console views">
      <button class="tab" type="button" data-view="keys" aria-pressed="true">API keys</button>
      <button class="tab" type="button" data-view="models" aria-pressed="false">Models</button>
      <button class="tab" type="button" data-view="logs" aria-pressed="false">Logs</button>
      <button class="tab" type="button" data-view="topup" aria-pressed="false">Top up</button>
      <button class="tab" type="button" data-view="password" aria-pressed="false">Password</button>${ADMIN_TABS_HTML}
    </nav>`;

export const MODELS_VIEW_HTML = `
    <section id="view-models" class="card spaced" aria-labelledby="catalogue-title" hidden>
      <header><div><h2 id="catalogue-title">Models</h2><p id="catalogue-count">Every model open to your account. Names must match exactly: copy them.</p></div>
        <div><label class="sr" for="catalogue-q">Search models</label><input id="catalogue-q" class="search" type="search" placeholder="Search models" spellcheck="false" autocapitalize="off" autocomplete="off"></div></header>
      <div id="catalogue"></div>
    </section>`;

export const LOGS_VIEW_HTML = `
    <section id="view-logs" class="card spaced" aria-labelledby="account-logs-title" hidden>
      <header><div><h2 id="account-logs-title">Request logs</h2><p>Requests made with your account's keys, newest first: did your client's request arrive, and how did it end?</p></div>
        <div><a class="btn" id="account-logs-csv" download="request-logs.csv">Download CSV</a></div></header>
      <form id="account-logs-filters" class="body filters" autocomplete="off">
        <div><label for="account-logs-key">Key</label><select id="account-logs-key"><option value="">All keys</option></select></div>
        <div><label for="account-logs-model">Model</label><input id="account-logs-model" type="text" placeholder="any model" spellcheck="false" autocapitalize="off"></div>
        <div><label for="account-logs-status">Result</label><select id="account-logs-status"><option value="">All</option><option value="ok">Success</option><option value="error">Error</option></select></div>
        <div><label for="account-logs-since">From</label><input id="account-logs-since" type="datetime-local"></div>
        <div><label for="account-logs-until">Until</label><input id="account-logs-until" type="datetime-local"></div>
        <div><button class="btn primary" id="account-logs-apply" type="submit">Show</button></div>
      </form>
      <div id="account-logs"></div>
      <div class="body more"><button class="btn" id="account-logs-older" type="button" hidden>Older</button></div>
    </section>`;

export const PASSWORD_VIEW_HTML = `
    <section id="view-password" class="card spaced" aria-labelledby="password-title" hidden>
      <header><div><h2 id="password-title">Change your password</h2><p>At least 10 characters. Every other browser signed in as you is signed out; this one stays signed in.</p></div></header>
      <form id="password-form" class="body filters" autocomplete="on">
        <input type="text" name="username" autocomplete="username" id="password-user" hidden>
        <div><label for="password-current">Current password</label><input id="password-current" type="password" autocomplete="current-password" required></div>
        <div><label for="password-new">New password</label><input id="password-new" type="password" autocomplete="new-password" minlength="10" required></div>
        <div><label for="password-again">New password again</label><input id="password-again" type="password" autocomplete="new-password" minlength="10" required></div>
        <div><button class="btn primary" id="password-button" type="submit">Change password</button></div>
      </form>
      <p class="body" id="password-done" role="status" hidden></p>
    </section>`;

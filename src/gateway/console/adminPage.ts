/**
 * The admins' views of the signed-in console (issue 10): their tabs, Users, Audit, Codes, Channels, Models &
 * prices and Tokens (hidden unless the user is an admin; the server refuses everyone else anyway, 403
 * admin_required; the Codes view is codesPage.ts's, Channels and Models & prices channelsPage.ts's, Tokens
 * tokensPage.ts's), the Users view (search, the new-user
 * form, each user's status and balance with their actions) and the Audit view (who did what, filters,
 * older pages). Static HTML placed by userPage.ts; adminScript.ts fills it, every value as text.
 */
import { CHANNEL_TABS_HTML } from './channelsPage.ts';

export const ADMIN_TABS_HTML = `
      <button class="tab admin-only" type="button" data-view="users" aria-pressed="false" hidden>Users</button>
      <button class="tab admin-only" type="button" data-view="audit" aria-pressed="false" hidden>Audit</button>
      <button class="tab admin-only" type="button" data-view="codes" aria-pressed="false" hidden>Codes</button>${CHANNEL_TABS_HTML}
      <button class="tab admin-only" type="button" data-view="tokens" aria-pressed="false" hidden>Tokens</button>`;

export const USERS_VIEW_HTML = `
    <section id="view-users" class="card spaced" aria-labelledby="users-title" hidden>
      <header><div><h2 id="users-title">Users</h2><p>Everyone who signs in to this console, with their account's balance. Every change here is in the audit log under your name.</p></div>
        <div class="toolbar"><label class="sr" for="users-q">Search users</label><input id="users-q" class="search" type="search" placeholder="Search users or accounts" spellcheck="false" autocapitalize="off" autocomplete="off">
          <button class="btn" id="users-refresh" type="button">Refresh</button></div></header>
      <form id="new-user-form" class="body filters" autocomplete="off">
        <div><label for="new-user-name">User name</label><input id="new-user-name" type="text" autocomplete="off" spellcheck="false" autocapitalize="off" required></div>
        <div><label for="new-user-password">Password (10+ characters)</label><input id="new-user-password" type="password" autocomplete="new-password" minlength="10" required></div>
        <div><label for="new-user-account">Account (optional)</label><input id="new-user-account" type="text" placeholder="a new one of the user's name" spellcheck="false" autocapitalize="off"></div>
        <div class="check"><label><input id="new-user-admin" type="checkbox"> Admin</label></div>
        <div><button class="btn primary" id="new-user-button" type="submit">Create user</button></div>
      </form>
      <p class="body notice" id="users-done" role="status" hidden></p>
      <div id="users"></div>
      <div class="body more"><button class="btn" id="users-more" type="button" hidden>More</button></div>
    </section>`;

export const AUDIT_VIEW_HTML = `
    <section id="view-audit" class="card spaced" aria-labelledby="audit-title" hidden>
      <header><div><h2 id="audit-title">Audit log</h2><p>Admin actions, newest first: who changed which user, balance, channel, price, redemption codes or tokens (<code>cli</code>: the command line; a script: its admin, via its token). Never a password, key, code or token.</p></div></header>
      <form id="audit-filters" class="body filters" autocomplete="off">
        <div><label for="audit-actor">Actor</label><input id="audit-actor" type="text" placeholder="anyone" spellcheck="false" autocapitalize="off"></div>
        <div><label for="audit-action">Action</label><select id="audit-action"><option value="">Any action</option></select></div>
        <div><button class="btn primary" id="audit-apply" type="submit">Show</button></div>
      </form>
      <div id="audit"></div>
      <div class="body more"><button class="btn" id="audit-older" type="button" hidden>Older</button></div>
    </section>`;

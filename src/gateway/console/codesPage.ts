/**
 * The console's views for redemption codes (issue 10): Top up, where any signed-in user redeems a code
 * and sees the new balance, and Codes, for admins only, where a batch is generated (shown once, with a
 * button that copies all of it), listed with its status and disabled. Static HTML placed by userPage.ts;
 * codesScript.ts brings it to life, every value from the server as text.
 */

export const TOPUP_VIEW_HTML = `
    <section id="view-topup" class="card spaced" aria-labelledby="topup-title" hidden>
      <header><div><h2 id="topup-title">Top up</h2><p>Redeem a code you were given: its value is added to your account's balance at once. Each code works once.</p></div></header>
      <form id="redeem-form" class="body filters" autocomplete="off">
        <div><label for="redeem-code">Redemption code</label><input id="redeem-code" type="text" placeholder="MGC-XXXX-XXXX-XXXX-XXXX-XXXX" maxlength="128" spellcheck="false" autocapitalize="characters" autocomplete="off" required></div>
        <div><button class="btn primary" id="redeem-button" type="submit">Redeem</button></div>
      </form>
      <div class="body" id="redeem-done" role="status" hidden>
        <p id="redeem-credited"></p>
        <div class="label">Balance now</div><div class="big" id="redeem-balance"></div>
      </div>
    </section>`;

export const CODES_VIEW_HTML = `
    <div id="view-codes" hidden>
    <div id="new-codes" class="card spaced secret" role="status" hidden>
      <header><div><h2>New codes <span id="new-codes-what" class="faint"></span></h2>
        <p>Copy them now: they are shown this once and cannot be shown again (only their fingerprints are kept).</p></div>
        <div id="new-codes-copy"></div></header>
      <div class="body">
        <pre id="new-codes-list"></pre>
        <p><button class="btn primary" id="new-codes-done" type="button">I have copied them</button></p>
      </div>
    </div>
    <section class="card spaced" aria-labelledby="admin-codes-title">
      <header><div><h2 id="admin-codes-title">Redemption codes</h2><p>Single-use codes of a value, for users to redeem in Top up. Only admins see this.</p></div>
        <div><button class="btn" id="admin-codes-refresh" type="button">Refresh</button></div></header>
      <form id="generate-form" class="body filters" autocomplete="off">
        <div><label for="generate-value">Value (USD)</label><input id="generate-value" type="text" inputmode="decimal" placeholder="5.00" spellcheck="false" required></div>
        <div><label for="generate-count">How many</label><input id="generate-count" type="number" min="1" max="1000" value="1" required></div>
        <div><label for="generate-batch">Batch name (optional)</label><input id="generate-batch" type="text" placeholder="spring-promo" spellcheck="false" autocapitalize="off"></div>
        <div><label for="generate-expires">Expires (optional)</label><input id="generate-expires" type="date"></div>
        <div><button class="btn primary" id="generate-button" type="submit">Generate</button></div>
      </form>
      <form id="admin-codes-filters" class="body filters" autocomplete="off">
        <div><label for="admin-codes-batch">Batch</label><input id="admin-codes-batch" type="text" placeholder="every batch" spellcheck="false" autocapitalize="off"></div>
        <div><label for="admin-codes-status">Status</label><select id="admin-codes-status"><option value="">All</option><option value="unused">Unused</option><option value="used">Used</option><option value="expired">Expired</option><option value="disabled">Disabled</option></select></div>
        <div><button class="btn primary" id="admin-codes-apply" type="submit">Show</button></div>
        <div id="admin-codes-batch-action"><button class="btn danger" id="admin-codes-disable-batch" type="button" hidden>Disable this batch</button></div>
      </form>
      <div id="admin-codes"></div>
      <div class="body more"><button class="btn" id="admin-codes-older" type="button" hidden>Older</button></div>
    </section>
    </div>`;

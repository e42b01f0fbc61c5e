/**
 * The console page: one self-contained HTML document (inline style and script, no external asset),
 * built once. Its Content-Security-Policy allows exactly its own style and script, by SHA-256 hash,
 * and lets it talk only to its own origin. The error meanings and the troubleshooting order come
 * from the contract module, so the page says what the gateway and the extension say.
 */
import { createHash } from 'node:crypto';
import { AUDIT_ACTIONS, GATEWAY_VERSION, STATUS_FAMILIES, TROUBLESHOOTING_STEPS } from '../../contract/index.ts';
import { CONSOLE_JS } from './script.ts';
import { CONSOLE_CSS } from './style.ts';
import { KEYS_HTML, SETUP_HTML, USER_SIGNIN_HTML } from './userPage.ts';
import { CHANNEL_FIELDS } from './channelsPage.ts';

const DATA = {
  families: STATUS_FAMILIES,
  steps: TROUBLESHOOTING_STEPS,
  codes: [['401', 'authentication', 'warn'], ['403', 'permission', 'warn'], ['404', 'not_found', 'warn'], ['429', 'rate_limit', 'warn'], ['5xx', 'server', 'bad']],
  // The admins' Audit view filters by these.
  auditActions: AUDIT_ACTIONS,
  // The admins' Channels view edits a channel in place with the add form's fields.
  channelFields: CHANNEL_FIELDS,
};

/** JSON that can sit inside a <script> element: no "</script>", no "<!--". */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const BODY = `
<header class="top"><div class="wrap top-in">
  <div class="brand"><span class="mark" aria-hidden="true"></span><span><b>Model Gateway</b><small>Console</small></span></div>
  <div class="who" id="who" hidden><span class="chip" id="who-key"></span><button class="btn" id="signout" type="button">Sign out</button></div>
</div></header>
<main class="wrap">
  <div id="alert" class="alert" role="alert" hidden></div>

  <section id="signin" class="card signin" aria-labelledby="signin-title">${USER_SIGNIN_HTML}
    <h2>Or open with an API key</h2>
    <p class="muted">Paste the API key you use in your tools to see its balance, the exact model names it may use, and its request logs.</p>
    <form id="signin-form" autocomplete="off">
      <label for="key">API key</label>
      <div class="field">
        <input id="key" name="key" type="password" placeholder="sk-…" spellcheck="false" autocapitalize="off" autocomplete="off" required>
        <button class="btn primary" id="signin-button" type="submit">Open console</button>
      </div>
      <p class="hint">The key stays in this browser tab only (session storage) and is sent to this gateway as
        <code>Authorization: Bearer &lt;API_KEY&gt;</code>. Sign out, or close the tab, to forget it.</p>
    </form>
  </section>
${SETUP_HTML}
${KEYS_HTML}

  <section id="app" hidden>
    <div class="alert info" id="trimmed" role="status" hidden><h3>Spaces around the key were removed</h3>
      <p>The console signed in with the key without them. Check that your tool has none either: there they cause a 401.</p></div>
    <div class="grid stats">
      <div class="card stat" id="balance-card">
        <div class="label">Balance remaining</div>
        <div class="big" id="bal-remaining"></div>
        <div class="meter" aria-hidden="true"><span id="bal-bar"></span></div>
        <div class="sub" id="bal-used"></div>
      </div>
      <div class="card stat">
        <div class="label">API key</div>
        <div class="big name" id="key-name"></div>
        <dl class="facts" id="key-facts"></dl>
      </div>
      <div class="card stat">
        <div class="label">Permissions</div>
        <div class="big name" id="allowed"></div>
        <dl class="facts" id="limits"></dl>
      </div>
    </div>

    <div class="grid two">
      <section class="card" aria-labelledby="models-title">
        <header><div><h2 id="models-title">Models</h2><p id="model-count"></p></div></header>
        <div id="models"></div>
      </section>
      <section class="card" aria-labelledby="connect-title">
        <header><div><h2 id="connect-title">Connect your tools</h2><p>Paste into the tool's Base URL / API Host / Endpoint field.</p></div></header>
        <div class="body">
          <div id="urls"></div>
          <p class="note">Most OpenAI-compatible tools take the <code>/v1</code> form. If requests fail with "Path not found" (404), try the other form.</p>
          <pre id="curl"></pre>
        </div>
      </section>
    </div>

    <section class="card spaced" aria-labelledby="logs-title">
      <header>
        <div><h2 id="logs-title">Request logs</h2><p>The latest requests made with this key, newest first: did your request arrive, and how did it end?</p></div>
        <div><span class="updated" id="updated" aria-live="polite"></span><button class="btn" id="refresh" type="button">Refresh</button></div>
      </header>
      <div id="logs"></div>
    </section>
  </section>

  <div class="grid two" id="help">
    <section class="card" aria-labelledby="steps-title">
      <header><h2 id="steps-title">Troubleshooting, in this order</h2></header>
      <div class="body"><ol class="steps" id="steps"></ol></div>
    </section>
    <section class="card" aria-labelledby="codes-title">
      <header><h2 id="codes-title">What an error status means</h2></header>
      <div class="body"><ul class="codes" id="codes"></ul></div>
    </section>
  </div>
</main>
<footer>Model Gateway ${GATEWAY_VERSION} · When you report a problem, send the Base URL, the model name, the error text and the request id, never the key.</footer>
`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export interface ConsolePage {
  readonly html: Buffer;
  readonly csp: string;
}

/**
 * A console page as one self-contained document: its style and script inline, allowed by their hashes
 * in its Content-Security-Policy, talking only to its own origin; `data` goes in as JSON the script reads.
 */
export function htmlPage(title: string, body: string, js: string, data?: unknown): ConsolePage {
  const dataScript = data === undefined ? '' : `<script type="application/json" id="console-data">${scriptSafeJson(data)}</script>\n`;
  return {
    html: Buffer.from(
      `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${CONSOLE_CSS}</style>
</head>
<body>${body}${dataScript}<script>${js}</script>
</body>
</html>
`,
      'utf8',
    ),
    csp: [
      "default-src 'none'",
      `script-src ${sha256(js)}`,
      `style-src ${sha256(CONSOLE_CSS)}`,
      "connect-src 'self'",
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  };
}

let built: ConsolePage | null = null;

/** The page and its Content-Security-Policy (built on first use, then reused). */
export function consolePage(): ConsolePage {
  built ??= htmlPage('Model Gateway Console', BODY, CONSOLE_JS, DATA);
  return built;
}

/** The console's stylesheet (inline in the page, allowed by its hash in the CSP). Light and dark by prefers-color-scheme. */
export const CONSOLE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f5f6f8; --panel: #ffffff; --panel-2: #fafbfc; --text: #171a1f; --muted: #5d6673; --faint: #8a929c;
  --line: #e4e7eb; --accent: #4f46e5; --accent-text: #ffffff; --accent-soft: #eef0ff;
  --ok: #127a3a; --ok-soft: #e5f5eb; --warn: #95560a; --warn-soft: #fff3df; --bad: #b42318; --bad-soft: #fdecea;
  --code: #f1f3f6; --shadow: 0 1px 2px rgba(16, 24, 40, .05), 0 1px 3px rgba(16, 24, 40, .07); --radius: 12px;
  --mono: ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1014; --panel: #161920; --panel-2: #1a1e26; --text: #e7e9ec; --muted: #a0a8b3; --faint: #737c88;
    --line: #272c35; --accent: #8c85ff; --accent-text: #0e1014; --accent-soft: #232140;
    --ok: #55d98b; --ok-soft: #11301e; --warn: #f5b94a; --warn-soft: #33260c; --bad: #ff8a80; --bad-soft: #3b1717;
    --code: #1f232c; --shadow: none;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { margin: 0; }
body {
  background: var(--bg); color: var(--text); line-height: 1.5; -webkit-font-smoothing: antialiased;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif;
}
code, .mono { font-family: var(--mono); font-size: 12.5px; }
h1, h2, h3 { margin: 0; line-height: 1.25; }
h1 { font-size: 20px; } h2 { font-size: 15px; font-weight: 600; }
a { color: var(--accent); }
.wrap { max-width: 1180px; margin: 0 auto; padding: 0 24px; }
.muted { color: var(--muted); } .faint { color: var(--faint); }

.top { background: var(--panel); border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
.top-in { display: flex; align-items: center; justify-content: space-between; height: 60px; gap: 16px; }
.brand { display: flex; align-items: center; gap: 10px; }
.mark { width: 28px; height: 28px; border-radius: 8px; background: linear-gradient(135deg, var(--accent), #06b6d4); position: relative; }
.mark::after { content: ""; position: absolute; inset: 8px; border: 2px solid #fff; border-radius: 50%; border-right-color: transparent; }
.brand b { font-size: 15px; } .brand small { color: var(--muted); margin-left: 8px; font-size: 13px; }
.who { display: flex; align-items: center; gap: 10px; }

.btn {
  font: inherit; font-size: 13px; font-weight: 500; border-radius: 8px; padding: 7px 12px; cursor: pointer;
  border: 1px solid var(--line); background: var(--panel); color: var(--text); display: inline-flex; align-items: center; gap: 6px;
}
.btn:hover { border-color: var(--faint); }
.btn:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.btn.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
.btn.primary:hover { filter: brightness(1.08); }
.btn.small { padding: 3px 8px; font-size: 12px; border-radius: 6px; }
.btn.done { color: var(--ok); border-color: var(--ok); }
.btn[disabled] { opacity: .6; cursor: default; }

main.wrap { padding-top: 24px; padding-bottom: 40px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); }
.card > header { display: flex; align-items: center; justify-content: space-between; gap: 12px; padding: 14px 18px; border-bottom: 1px solid var(--line); }
.card > header p { margin: 2px 0 0; color: var(--muted); font-size: 12.5px; }
.card .body { padding: 16px 18px; }
.grid { display: grid; gap: 16px; margin-bottom: 16px; }
.spaced { margin-bottom: 16px; }
.stats { grid-template-columns: repeat(3, minmax(0, 1fr)); }
.two { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: start; }
@media (max-width: 860px) { .stats, .two { grid-template-columns: minmax(0, 1fr); } }

.stat { padding: 16px 18px; }
.label { color: var(--muted); font-size: 12px; font-weight: 500; text-transform: uppercase; letter-spacing: .04em; }
.big { font-size: 28px; font-weight: 650; letter-spacing: -.01em; margin: 4px 0 2px; font-variant-numeric: tabular-nums; }
.big.name { font-size: 20px; margin: 6px 0 4px; overflow-wrap: anywhere; }
.sub { color: var(--muted); font-size: 13px; }
.facts { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 8px 0 0; font-size: 13px; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
.meter { height: 6px; background: var(--code); border-radius: 99px; overflow: hidden; margin: 10px 0 6px; }
.meter > span { display: block; height: 100%; background: linear-gradient(90deg, var(--accent), #06b6d4); border-radius: 99px; }

.pill { display: inline-block; padding: 1px 8px; border-radius: 99px; font-size: 12px; font-weight: 600; font-variant-numeric: tabular-nums; }
.pill.ok { background: var(--ok-soft); color: var(--ok); }
.pill.warn { background: var(--warn-soft); color: var(--warn); }
.pill.bad { background: var(--bad-soft); color: var(--bad); }
.pill.neutral { background: var(--code); color: var(--muted); }
.chip { background: var(--code); border-radius: 99px; padding: 4px 10px; font-size: 12.5px; }

.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; font-weight: 500; color: var(--muted); font-size: 12px; background: var(--panel-2); white-space: nowrap; }
th, td { padding: 9px 14px; border-bottom: 1px solid var(--line); vertical-align: middle; }
tbody tr:last-child td { border-bottom: 0; }
tbody tr:hover td { background: var(--panel-2); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.nowrap { white-space: nowrap; }
.name-cell { display: flex; align-items: center; gap: 8px; }
.name-cell code { font-size: 13px; font-weight: 600; }
.empty { padding: 28px 18px; text-align: center; color: var(--muted); }

.url-row { display: flex; align-items: center; gap: 8px; margin-bottom: 10px; }
.url-row .what { width: 118px; flex: none; color: var(--muted); font-size: 12.5px; white-space: nowrap; }
.url-row code { flex: 1; min-width: 0; background: var(--code); padding: 6px 10px; border-radius: 6px; overflow-x: auto; white-space: nowrap; }
pre { background: var(--code); border-radius: 8px; padding: 10px 12px; margin: 10px 0 0; overflow-x: auto; font-family: var(--mono); font-size: 12px; }
.note { font-size: 12.5px; color: var(--muted); margin: 10px 0 0; }

ol.steps { margin: 0; padding-left: 20px; } ol.steps li { margin: 4px 0; }
ul.codes { list-style: none; margin: 0; padding: 0; } ul.codes li { display: flex; gap: 10px; margin: 6px 0; align-items: baseline; }
ul.codes .pill { flex: none; min-width: 44px; text-align: center; }

.alert { border-radius: var(--radius); padding: 14px 16px; margin-bottom: 16px; border: 1px solid var(--bad); background: var(--bad-soft); }
.alert h3 { font-size: 14px; color: var(--bad); margin-bottom: 4px; }
.alert p { margin: 2px 0; }
.alert code { display: block; margin-top: 8px; white-space: pre-wrap; overflow-wrap: anywhere; opacity: .9; }
.alert.info { border-color: var(--line); background: var(--panel); }
.alert.info h3 { color: var(--text); }

.signin { max-width: 520px; margin: 48px auto; padding: 28px; }
.signin p { margin: 8px 0 18px; }
.signin label { display: block; font-weight: 500; margin-bottom: 6px; }
.field { display: flex; gap: 8px; }
.field input {
  flex: 1; min-width: 0; font: inherit; font-family: var(--mono); font-size: 13px; padding: 8px 10px; border-radius: 8px;
  border: 1px solid var(--line); background: var(--panel-2); color: var(--text);
}
.hint { font-size: 12.5px; color: var(--muted); margin-top: 10px; }
.updated { font-size: 12px; color: var(--faint); margin-right: 4px; }
/* Sign-in with a user name, the first-admin setup, the keys view (issue 10). */
.signin input[type="text"] { width: 100%; margin-bottom: 12px; }
.signin input, .new-key input {
  font: inherit; font-size: 13px; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--line); background: var(--panel-2); color: var(--text);
}
.signin h2 { margin-top: 4px; }
hr.or { border: 0; border-top: 1px solid var(--line); margin: 22px 0 18px; }
.new-key { display: grid; grid-template-columns: 2fr 3fr 2fr 1fr 1fr auto; gap: 10px; align-items: end; border-bottom: 1px solid var(--line); }
.new-key label { display: block; font-size: 12px; color: var(--muted); margin-bottom: 4px; }
.new-key input { width: 100%; }
@media (max-width: 860px) { .new-key { grid-template-columns: minmax(0, 1fr); } }
/* A key's own limits (issue 10): on the create form's second row, and in a key's row when its limits are edited. */
.new-key select, .limits-form input, .limits-form select {
  font: inherit; font-size: 13px; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--line); background: var(--panel-2); color: var(--text); width: 100%;
}
.limits-form { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 10px; align-items: end; }
.new-key .limits-row { grid-column: 1 / -1; }
.limits-form label { display: block; font-size: 12px; color: var(--muted); margin-bottom: 4px; }
.limits-form .wide { grid-column: span 2; }
.secret { border-color: var(--ok); }
.secret #new-secret-value { font-weight: 600; }
.actions { display: flex; gap: 6px; flex-wrap: wrap; justify-content: flex-end; }
.actions .confirm { color: var(--bad); font-size: 12.5px; align-self: center; }
.btn.danger { color: var(--bad); border-color: var(--bad); }
.snippet h3 { font-size: 12.5px; color: var(--muted); margin: 14px 0 0; display: flex; align-items: center; gap: 8px; }
/* The device approval page (/device): the models to narrow the key to, the answer buttons. */
.signin fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 16px; padding: 8px 14px; }
.signin legend { font-size: 12.5px; color: var(--muted); padding: 0 4px; }
.signin label.model-choice { font-weight: 400; margin: 4px 0; }
.signin .actions { justify-content: flex-start; }
/* The signed-in user's views (issue 10): tabs, the catalogue's search, the logs' filters. */
.tabs { display: flex; gap: 4px; margin: 0 0 16px; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.tab { font: inherit; font-size: 13.5px; background: none; border: 0; border-bottom: 2px solid transparent; padding: 8px 12px; color: var(--muted); cursor: pointer; }
.tab[aria-pressed="true"] { color: var(--text); border-bottom-color: var(--accent); font-weight: 600; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.search, .filters input, .filters select {
  font: inherit; font-size: 13px; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--line); background: var(--panel-2); color: var(--text); min-width: 0;
}
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; align-items: end; border-bottom: 1px solid var(--line); }
.filters label { display: block; font-size: 12px; color: var(--muted); margin-bottom: 4px; }
.filters input, .filters select { width: 100%; }
.more { display: flex; justify-content: center; }
a.btn { text-decoration: none; }
/* The admins' views (issue 10): users with their actions, the audit log. */
.toolbar { display: flex; align-items: center; gap: 8px; }
.balance { font-size: 13px; color: var(--muted); white-space: nowrap; } .balance b { color: var(--text); font-variant-numeric: tabular-nums; }
.filters .check label { display: flex; align-items: center; gap: 6px; font-size: 13px; color: var(--text); margin: 0 0 8px; }
.filters .check input { width: auto; }
.pill.tag { margin-left: 6px; }
.notice { margin: 0; color: var(--ok); border-bottom: 1px solid var(--line); }
.inline-ask { display: flex; gap: 6px; align-items: center; justify-content: flex-end; }
.inline-input { font: inherit; font-size: 12.5px; padding: 3px 8px; border-radius: 6px; border: 1px solid var(--line); background: var(--panel-2); color: var(--text); width: 190px; }
td.details, td.target { overflow-wrap: anywhere; }
/* The admins' channels and prices (issue 10): health under the status, a test's answer, the edit form in a row, unpriced models. */
td .health, td .last-failure { font-size: 12px; margin-top: 2px; overflow-wrap: anywhere; }
tr.test-result td, tr[data-edit-for] td { background: var(--panel-2); }
code.test-line { overflow-wrap: anywhere; }
td.models-cell, td.prices-cell { overflow-wrap: anywhere; max-width: 280px; }
.edit-channel { border-bottom: 0; padding: 0; }
.actions .btn { white-space: nowrap; }
tr.unpriced td { background: var(--warn-soft); }
.unpriced-note { margin: 0; color: var(--warn); background: var(--warn-soft); border-bottom: 1px solid var(--line); }
footer { text-align: center; color: var(--faint); font-size: 12px; padding: 0 0 28px; }
`;

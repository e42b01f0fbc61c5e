/**
 * The admins' views of channels and prices (issue 10): their tabs (hidden unless the user is an admin; the
 * server refuses everyone else anyway, 403 admin_required), the Channels view (the add form, each channel
 * with its status and health, and its actions: test, edit in place, disable or enable, delete after a
 * confirmation) and the Models & prices view (search, the price form for tokens, images with variants or
 * free, unpriced models marked with their fix). Static HTML placed by userPage.ts; channelsScript.ts and
 * pricesScript.ts fill it, every value as text.
 */
import { CHANNEL_TYPES, MODEL_KINDS } from '../../contract/index.ts';

const options = (values: readonly string[]) => values.map((v) => `<option value="${v}">${v}</option>`).join('');

export const CHANNEL_TABS_HTML = `
      <button class="tab admin-only" type="button" data-view="channels" aria-pressed="false" hidden>Channels</button>
      <button class="tab admin-only" type="button" data-view="prices" aria-pressed="false" hidden>Models &amp; prices</button>`;

/** The settings of a channel, for the add form (prefix "channel") and the edit form in a row (prefix "edit"). */
export const CHANNEL_FIELDS = [
  ['base-url', 'Base URL', 'url', 'https://api.example.com/v1'],
  ['models', 'Models (NAME or NAME=UPSTREAM, comma-separated)', 'text', 'gpt-4o-mini, big=upstream-big'],
  ['priority', 'Priority', 'number', '0'],
  ['weight', 'Weight', 'number', '1'],
  ['timeout', 'Timeout (ms)', 'number', '120000'],
  ['proxy', 'Proxy (optional)', 'url', 'http://proxy:3128'],
] as const;

const fields = CHANNEL_FIELDS.map(([id, label, type, placeholder]) =>
  `<div><label for="channel-${id}">${label}</label><input id="channel-${id}" type="${type === 'url' ? 'text' : type}" placeholder="${placeholder}" spellcheck="false" autocapitalize="off"${type === 'number' ? ' min="0" inputmode="numeric"' : ''}></div>`).join('\n        ');

export const CHANNELS_VIEW_HTML = `
    <section id="view-channels" class="card spaced" aria-labelledby="channels-title" hidden>
      <header><div><h2 id="channels-title">Channels</h2><p>The upstreams models are served from. A channel's key is never shown again: only whether one is set. Every change here is in the audit log under your name.</p></div>
        <div><button class="btn" id="channels-refresh" type="button">Refresh</button></div></header>
      <form id="channel-form" class="body filters" autocomplete="off">
        <div><label for="channel-name">Name</label><input id="channel-name" type="text" placeholder="openai-main" spellcheck="false" autocapitalize="off" required></div>
        <div><label for="channel-type">Type</label><select id="channel-type">${options(CHANNEL_TYPES)}</select></div>
        ${fields}
        <div><label for="channel-key">API key</label><input id="channel-key" type="password" autocomplete="new-password" placeholder="the upstream's key"></div>
        <div><label for="channel-responses">Responses API</label><select id="channel-responses"><option value="">by base URL</option><option value="yes">yes</option><option value="no">no</option></select></div>
        <div><button class="btn primary" id="channel-add-button" type="submit">Add channel</button></div>
      </form>
      <div class="body notice" id="channels-done" role="status" hidden></div>
      <div id="channels"></div>
    </section>`;

export const PRICES_VIEW_HTML = `
    <section id="view-prices" class="card spaced" aria-labelledby="prices-title" hidden>
      <header><div><h2 id="prices-title">Models &amp; prices</h2><p id="prices-count">Every model priced or served by a channel. A model with no price is not served: price it, or mark it free.</p></div>
        <div class="toolbar"><label class="sr" for="prices-q">Search models</label><input id="prices-q" class="search" type="search" placeholder="Search models" spellcheck="false" autocapitalize="off" autocomplete="off">
          <button class="btn" id="prices-refresh" type="button">Refresh</button></div></header>
      <p class="body unpriced-note" id="prices-unpriced" role="status" hidden></p>
      <form id="price-form" class="body filters" autocomplete="off">
        <div><label for="price-model">Model</label><input id="price-model" type="text" placeholder="gpt-4o-mini" spellcheck="false" autocapitalize="off" required></div>
        <div><label for="price-kind">Kind</label><select id="price-kind">${options(MODEL_KINDS)}</select></div>
        <div class="check"><label><input id="price-free" type="checkbox"> Free (no charge)</label></div>
        <div data-for="tokens"><label for="price-input">Input USD / 1M tokens</label><input id="price-input" type="text" inputmode="decimal" placeholder="0.15"></div>
        <div data-for="output"><label for="price-output">Output USD / 1M tokens</label><input id="price-output" type="text" inputmode="decimal" placeholder="0.60"></div>
        <div data-for="output"><label for="price-cached">Cached input (optional)</label><input id="price-cached" type="text" inputmode="decimal" placeholder="input price"></div>
        <div data-for="output"><label for="price-cache-write">Cache write (optional)</label><input id="price-cache-write" type="text" inputmode="decimal" placeholder="input price"></div>
        <div data-for="image" hidden><label for="price-image">USD per image</label><input id="price-image" type="text" inputmode="decimal" placeholder="0.04"></div>
        <div data-for="image" hidden><label for="price-variants">By size or quality (optional)</label><input id="price-variants" type="text" placeholder="1024x1792=0.08, hd=0.08" spellcheck="false"></div>
        <div><label for="price-context">Context (optional)</label><input id="price-context" type="number" min="1" inputmode="numeric" placeholder="kept"></div>
        <div><label for="price-tools">Tools</label><select id="price-tools"><option value="">kept</option><option value="yes">yes</option><option value="no">no</option></select></div>
        <div><button class="btn primary" id="price-button" type="submit">Set price</button></div>
      </form>
      <div class="body notice" id="prices-done" role="status" hidden></div>
      <div id="prices"></div>
    </section>`;

/**
 * A key's secret, shown this once after it is made or rotated: copy buttons, the base URL with /v1,
 * ready-to-paste snippets (curl and the openai SDK for Python and Node, from the gateway's answer) and
 * the VS Code extension's settings, which never hold the key (the extension's Set API Key command puts
 * it in VS Code's secret storage). The page forgets the answer at "I have copied it"; nothing is stored.
 */
import { useEffect, useRef } from 'preact/hooks';
import { useT } from '../i18n/lang.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { KEY_WORDS } from './keyWords.ts';
import type { CreatedKey } from './types.ts';
import { vscodeSettings } from './vscodeSettings.ts';

function Snippet({ id, title, text }: { readonly id: string; readonly title: string; readonly text: string }) {
  const t = useT(KEY_WORDS);
  return (
    <div class="snippet">
      <div class="snippet-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <CopyButton text={text} ariaLabel={t('copySnippet', { what: title })} />
      </div>
      <pre id={id} aria-labelledby={`${id}-title`} tabIndex={0}>{text}</pre>
    </div>
  );
}

export function NewSecret({ answer, rotated, onDone }: {
  readonly answer: CreatedKey;
  readonly rotated: boolean;
  readonly onDone: () => void;
}) {
  const t = useT(KEY_WORDS);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [answer.secret]);
  const { snippets } = answer;
  return (
    <section class="card new-secret" id="new-secret" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title" ref={heading} tabIndex={-1}>
        {rotated ? t('rotatedTitle', { name: answer.key.name }) : t('newTitle', { name: answer.key.name })}
      </h2>
      <p class="alert warning" role="status">{t('onceNote')}</p>
      <dl class="secret-rows">
        <dt>{t('secret')}</dt>
        <dd class="secret">
          <code id="new-secret-value">{answer.secret}</code>
          <CopyButton text={answer.secret} ariaLabel={t('copySecret')} id="new-secret-copy" />
        </dd>
        <dt>{t('baseUrl')}</dt>
        <dd>
          <div class="secret">
            <code id="new-secret-base">{snippets.base_url}</code>
            <CopyButton text={snippets.base_url} ariaLabel={t('copyBaseUrl')} />
          </div>
          <p class="hint">{t('baseUrlHint')}</p>
        </dd>
      </dl>
      <h3 class="snippets-title">{t('snippetsTitle')}</h3>
      <div class="snippets" id="snippets">
        <Snippet id="snippet-curl" title={t('curl')} text={snippets.curl} />
        <Snippet id="snippet-python" title={t('python')} text={snippets.python} />
        <Snippet id="snippet-node" title={t('node')} text={snippets.node} />
        <div class="snippet" id="snippet-vscode-block">
          <div class="snippet-head">
            <h3 id="snippet-vscode-title">{t('vscode')}</h3>
            <CopyButton text={vscodeSettings(snippets.base_url, snippets.model)} ariaLabel={t('copySnippet', { what: t('vscode') })} />
          </div>
          <p class="small">{t('vscodeSettings')}</p>
          <pre id="snippet-vscode" aria-labelledby="snippet-vscode-title" tabIndex={0}>{vscodeSettings(snippets.base_url, snippets.model)}</pre>
          <p class="small" id="snippet-vscode-key">{t('vscodeKey')}</p>
          <p class="small muted">{t('vscodeSignIn')}</p>
        </div>
      </div>
      <button type="button" class="btn primary" id="new-secret-done" onClick={onDone}>{t('done')}</button>
    </section>
  );
}

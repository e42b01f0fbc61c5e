/**
 * The signed-in frame: the menu (a side bar, a drawer on a phone), who is signed in, the language and
 * the theme, and the page. The menu marks the current page for screen readers (aria-current).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ADMIN_NAV, NAV_WORDS, USER_NAV, type NavItem } from './nav.ts';
import { useT } from './i18n/lang.ts';
import { useSession } from './session.ts';
import { href } from './router.ts';
import { Preferences } from './ui/Preferences.tsx';
import { LAYOUT_WORDS } from './layoutWords.ts';

function Menu({ items, current, onPick }: { readonly items: readonly NavItem[]; readonly current: string; readonly onPick: () => void }) {
  const t = useT(NAV_WORDS);
  return (
    <ul>
      {items.map((item) => (
        <li key={item.path}>
          <a href={href(item.path)} aria-current={current === item.path ? 'page' : undefined} onClick={onPick}>{t(item.word)}</a>
        </li>
      ))}
    </ul>
  );
}

export function Layout({ path, children }: { readonly path: string; readonly children: ComponentChildren }) {
  const { user, signOut } = useSession();
  const t = useT(LAYOUT_WORDS);
  const nav = useT(NAV_WORDS);
  const [open, setOpen] = useState(false);
  // The drawer closes on Escape, as menus do, and the focus goes back to its button.
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      document.querySelector<HTMLElement>('.menu-button')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <div class="shell">
      <a class="skip" href="#main">{t('skip')}</a>
      <header class="topbar">
        <button type="button" class="btn ghost menu-button" aria-expanded={open} aria-controls="side" onClick={() => setOpen(!open)}>☰<span class="sr-only">{t('menu')}</span></button>
        <a class="brand" href={href('/')} aria-label="Model Gateway"><span class="mark" aria-hidden="true" /><span class="brand-name">Model Gateway</span></a>
        <div class="topbar-end">
          <Preferences />
          {user && <span class="chip" data-testid="who" title={user.account ? t('accountIs', { account: user.account }) : undefined}>{user.name}{user.admin ? ` · ${t('admin')}` : ''}</span>}
          <button type="button" class="btn small" id="signout" onClick={() => void signOut()}>{t('signOut')}</button>
        </div>
      </header>
      <nav id="side" class={`side${open ? ' open' : ''}`} aria-label={t('menu')}>
        <Menu items={USER_NAV} current={path} onPick={() => setOpen(false)} />
        {user?.admin && (
          <>
            <h2 class="side-section">{nav('adminSection')}</h2>
            <Menu items={ADMIN_NAV} current={path} onPick={() => setOpen(false)} />
          </>
        )}
      </nav>
      <main id="main" class="main" tabIndex={-1}>{children}</main>
    </div>
  );
}

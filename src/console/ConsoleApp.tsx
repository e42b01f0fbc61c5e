/**
 * The console: the language, the session, and which page shows. A page that needs a session sends a
 * person who has none to sign in, and back to that page afterwards.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call } from './api.ts';
import { initialLang, LangContext, saveLang, useT, type Lang } from './i18n/lang.ts';
import { Layout } from './Layout.tsx';
import { LAYOUT_WORDS } from './layoutWords.ts';
import { ADMIN_PAGES, PUBLIC_PAGES, USER_PAGES } from './pages.ts';
import { href, navigate, useRoute } from './router.ts';
import { SessionContext, type SignedInUser } from './session.ts';
import { Alert, ErrorAlert } from './ui/Alert.tsx';
import { PublicFrame } from './ui/PublicFrame.tsx';
import { COMMON } from './i18n/common.ts';

function Loading() {
  const t = useT(COMMON);
  return <p class="loading" role="status">{t('loading')}</p>;
}

function NotFound({ adminOnly }: { readonly adminOnly?: boolean }) {
  const t = useT(LAYOUT_WORDS);
  return (
    <Alert kind="warning" title={adminOnly ? t('adminOnly') : t('notFound')}>
      <p>{t('notFoundHint')}</p>
      <p><a href={href('/')}>{t('home')}</a></p>
    </Alert>
  );
}

function Redirect({ to, next }: { readonly to: string; readonly next?: string }) {
  useEffect(() => navigate(to, { next }, true), [to, next]);
  return null;
}

function Routed({ user, loadError }: { readonly user: SignedInUser | null | undefined; readonly loadError: Error | null }) {
  const { path, query } = useRoute();
  const Public = PUBLIC_PAGES[path];
  if (Public) return <PublicFrame><Public /></PublicFrame>;
  if (loadError) return <PublicFrame><ErrorAlert error={loadError} onRetry={() => location.reload()} /></PublicFrame>;
  if (user === undefined) return <PublicFrame><Loading /></PublicFrame>;
  if (user === null) return <Redirect to="/signin" next={path === '/' ? undefined : `${path}${query.size ? `?${query}` : ''}`} />;
  const Page = ADMIN_PAGES[path] ?? USER_PAGES[path];
  let body: ComponentChildren;
  if (!Page) body = <NotFound />;
  else if (ADMIN_PAGES[path] && !user.admin) body = <NotFound adminOnly />;
  else body = <Page key={path} />;
  return <Layout path={path}>{body}</Layout>;
}

export function ConsoleApp() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const setLang = useCallback((next: Lang) => {
    saveLang(next);
    setLangState(next);
  }, []);
  // undefined: not known yet; null: nobody signed in.
  const [user, setUser] = useState<SignedInUser | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<Error | null>(null);

  useEffect(() => {
    document.documentElement.lang = lang;
    call('getSession').then((answer) => setUser(answer.user), (error: Error) => setLoadError(error));
  }, []);

  const signOut = useCallback(async () => {
    try {
      await call('signOut');
    } finally {
      setUser(null);
      navigate('/signin');
    }
  }, []);

  return (
    <LangContext.Provider value={{ lang, setLang }}>
      <SessionContext.Provider value={{ user: user ?? null, ready: user !== undefined || loadError !== null, setUser, signOut }}>
        <Routed user={user} loadError={loadError} />
      </SessionContext.Provider>
    </LangContext.Provider>
  );
}

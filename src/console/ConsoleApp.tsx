/**
 * The console: the language, the session, and which page shows. A page that needs a session sends a
 * person who has none to sign in, and back to that page afterwards. The session can end while a page is
 * open (signed out or password changed in another tab, the user disabled, expiry): the first call
 * refused with `not_signed_in` clears the user, whichever page made it, so the same redirect happens.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, onSessionEnded } from './api.ts';
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

function Redirect({ to, query }: { readonly to: string; readonly query: Record<string, string | undefined> }) {
  const target = JSON.stringify([to, query]);
  useEffect(() => navigate(to, query, true), [target]);
  return null;
}

interface RoutedProps {
  readonly user: SignedInUser | null | undefined;
  readonly loadError: Error | null;
  /** The session ended while the console was open (the sign-in page says so). */
  readonly ended: boolean;
}

function Routed({ user, loadError, ended }: RoutedProps) {
  const { path, query } = useRoute();
  const Public = PUBLIC_PAGES[path];
  if (Public) return <PublicFrame><Public /></PublicFrame>;
  if (loadError) return <PublicFrame><ErrorAlert error={loadError} onRetry={() => location.reload()} /></PublicFrame>;
  if (user === undefined) return <PublicFrame><Loading /></PublicFrame>;
  if (user === null) {
    const next = path === '/' ? undefined : `${path}${query.size ? `?${query}` : ''}`;
    return <Redirect to="/signin" query={{ next, ended: ended ? '1' : undefined }} />;
  }
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
  const [ended, setEnded] = useState(false);

  useEffect(() => {
    document.documentElement.lang = lang;
    call('getSession').then((answer) => setUser(answer.user), (error: Error) => setLoadError(error));
    return onSessionEnded(() => {
      setUser((was) => {
        if (was) setEnded(true);
        return null;
      });
    });
  }, []);

  const setSignedIn = useCallback((next: SignedInUser | null) => {
    setEnded(false);
    setUser(next);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await call('signOut');
    } finally {
      setSignedIn(null);
      navigate('/signin');
    }
  }, []);

  return (
    <LangContext.Provider value={{ lang, setLang }}>
      <SessionContext.Provider value={{ user: user ?? null, ready: user !== undefined || loadError !== null, setUser: setSignedIn, signOut }}>
        <Routed user={user} loadError={loadError} ended={ended} />
      </SessionContext.Provider>
    </LangContext.Provider>
  );
}

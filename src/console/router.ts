/**
 * Where the console is: the part of the address after `#` (`#/keys?key=3`), so that every page is one
 * document the gateway serves at `/` and a reload keeps the page. Two addresses come from outside:
 * `/device?user_code=...` (RFC 8628's verification URI) and `#setup=TOKEN` (the link `serve` prints).
 */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** "/keys", "/admin/users"; "/" for the dashboard. */
  readonly path: string;
  readonly query: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.slice(1);
  if (hash.startsWith('setup=')) return { path: '/setup', query: new URLSearchParams(hash) };
  if (location.pathname === '/device' && !hash.startsWith('/')) return { path: '/device', query: new URLSearchParams(location.search) };
  const [path = '/', query = ''] = hash.split('?', 2);
  return { path: path.startsWith('/') ? path : '/', query: new URLSearchParams(query) };
}

/** The link to a page of the console. */
export function href(path: string, query?: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

export function navigate(path: string, query?: Record<string, string | number | undefined>, replace = false): void {
  const target = href(path, query);
  if (location.pathname !== '/' || location.search !== '') {
    // Leaving /device or /console for the app's own address.
    location.assign(`/${target}`);
    return;
  }
  if (replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  dispatchEvent(new HashChangeEvent('hashchange'));
}

/** The route, kept current as the address changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = (): void => setRoute(currentRoute());
    addEventListener('hashchange', update);
    addEventListener('popstate', update);
    return () => {
      removeEventListener('hashchange', update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

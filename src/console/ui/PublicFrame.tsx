/** The frame of the pages one opens without a session: sign-in, sign-up, setup, the key console, /device. */
import type { ComponentChildren } from 'preact';
import { href } from '../router.ts';
import { Preferences } from './Preferences.tsx';

export function PublicFrame({ children }: { readonly children: ComponentChildren }) {
  return (
    <div class="public">
      <header class="topbar">
        {/* From /device the console's home is at the root, not /device#/. */}
        <a class="brand" href={`/${href('/')}`}><span class="mark" aria-hidden="true" />Model Gateway</a>
        <div class="topbar-end"><Preferences /></div>
      </header>
      <main id="main" class="public-main">{children}</main>
    </div>
  );
}

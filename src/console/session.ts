/**
 * Who is signed in: read once from GET /api/console/session as the console opens, set again by sign-in,
 * setup and sign-out. Every page under the signed-in layout can count on `user`.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Answer } from './api.ts';

export type SignedInUser = NonNullable<Answer<'getSession'>['user']>;

export interface SessionState {
  readonly user: SignedInUser | null;
  /** The session question has been answered (until then `user` is null without meaning "nobody"). */
  readonly ready: boolean;
  /** After sign-in or setup: the answer's user; after sign-out: null. */
  readonly setUser: (user: SignedInUser | null) => void;
  readonly signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionState>({ user: null, ready: false, setUser: () => undefined, signOut: async () => undefined });

export const useSession = (): SessionState => useContext(SessionContext);

/** The signed-in user, for pages that only render signed in. */
export function useUser(): SignedInUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser outside the signed-in layout');
  return user;
}

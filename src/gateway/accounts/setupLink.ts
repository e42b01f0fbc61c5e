/**
 * The first-admin setup link: a gateway started with no admin makes one random token, prints a link
 * with it once (in the URL's #fragment, which browsers never send to a server, so it reaches no access
 * log), and accepts it once, within SETUP_LINK_MS. Only its SHA-256 is held, in memory: a restart
 * while there is still no admin prints a new link and the old one is dead.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SETUP_LINK_MS = 60 * 60 * 1000;
/** The fragment parameter the console page reads: {base}/#setup=TOKEN. */
export const SETUP_FRAGMENT = 'setup';

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export class SetupLink {
  readonly #hash: Buffer;
  readonly #expiresAt: number;
  readonly #now: () => number;
  #used = false;

  /** Returns the link's token (shown once, by the caller) and the link that checks it. */
  static issue(now: () => number = Date.now): { token: string; link: SetupLink } {
    const token = randomBytes(32).toString('base64url');
    return { token, link: new SetupLink(digest(token), now() + SETUP_LINK_MS, now) };
  }

  private constructor(hash: Buffer, expiresAt: number, now: () => number) {
    this.#hash = hash;
    this.#expiresAt = expiresAt;
    this.#now = now;
  }

  /** Whether `token` is this link's and still usable, without using it. */
  accepts(token: string): boolean {
    return !this.#used && this.#now() < this.#expiresAt && timingSafeEqual(digest(token), this.#hash);
  }

  /** Uses the link: true once for the right token in time, false ever after. Synchronous, so two requests cannot both win. */
  use(token: string): boolean {
    if (!this.accepts(token)) return false;
    this.#used = true;
    return true;
  }
}

/** The link to print: the console's own address (loopback when it listens on every interface) with the token in the fragment. */
export function setupUrl(baseUrl: string, token: string): string {
  const local = baseUrl.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
  return `${local}/#${SETUP_FRAGMENT}=${token}`;
}

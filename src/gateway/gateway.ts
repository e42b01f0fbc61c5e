/** What one running gateway is made of: the parts every request handler may use, built by startGateway and closed by its stop. */
import type { BodyRules } from './http/body.ts';
import type { Catalog } from './catalog.ts';
import type { Ledger } from './accounts/ledger.ts';
import type { Leases } from './accounts/leases.ts';
import type { KeyUsage } from './accounts/keyUsage.ts';
import type { Serial } from './serial.ts';
import type { LogWriter } from './logs.ts';
import type { ConcurrencyLimit, RequestRateLimit } from './ratelimit.ts';
import type { RelayChat } from './relay/types.ts';
import type { ChannelHealth } from './relay/health.ts';
import type { Store } from './store/types.ts';
import type { Sessions } from './accounts/sessions.ts';
import type { SignInThrottle } from './accounts/signInThrottle.ts';
import type { SetupLink } from './accounts/setupLink.ts';
import type { DeviceGrants } from './accounts/deviceGrants.ts';

/** What the console's sign-in needs: sessions, the failed sign-in throttle, the first-admin setup link, and device sign-ins. */
export interface ConsoleAuth {
  readonly sessions: Sessions;
  readonly throttle: SignInThrottle;
  /** Made when a gateway started with no admin (and was asked for one); null otherwise. */
  readonly setup: SetupLink | null;
  /** Device sign-ins (RFC 8628) waiting for a user's answer, and the throttle on wrong user codes. */
  readonly devices: DeviceGrants;
  readonly userCodeThrottle: SignInThrottle;
  /** Wrong redemption codes, per account and per source address. */
  readonly redeemThrottle: SignInThrottle;
  /** Sign-ups, every try counted per source address. */
  readonly signUpThrottle: SignInThrottle;
}

export interface Gateway {
  readonly store: Store;
  readonly catalog: Catalog;
  readonly ledger: Ledger;
  /** On a store several instances share (PostgreSQL): the ledger spends from balance leases, taken through this. Null otherwise. */
  readonly leases: Leases | null;
  readonly serial: Serial;
  readonly logs: LogWriter;
  /** In memory (ratelimit.ts), or shared by the instances on one database (accounts/sharedLimits.ts). */
  readonly rate: RequestRateLimit;
  readonly concurrency: ConcurrencyLimit;
  /** Keys' spending limits, requests per day and tokens per minute (accounts/keyUsage.ts). */
  readonly usage: KeyUsage;
  /** The operator said the gateway is behind a proxy: a request's address is the last one in X-Forwarded-For (http/clientAddress.ts). */
  readonly trustProxy: boolean;
  readonly relay: RelayChat;
  /** The relay's failover memory of this instance (which channels failed in a row, which cool down): the admins' channel list shows it. */
  readonly health: ChannelHealth;
  readonly startedAt: number;
  /** How request bodies are received: size, deadline, and memory for all of them at once. */
  readonly body: BodyRules;
  readonly console: ConsoleAuth;
  /** serve's --log-retention-days when it was given: it wins over the setting (settings.ts). Null: the setting applies. */
  readonly logRetentionDays: number | null;
}

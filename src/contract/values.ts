/**
 * Plain values of the contract that both the gateway and the web console read: no zod here, so the
 * console (a browser bundle) can import them without the schemas. The schema modules re-export them.
 */

/** Every kind of model the gateway serves (contract 1.4). */
export const MODEL_KINDS = ['chat', 'completion', 'embedding', 'image'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** User, account, batch and token names: 1 to 64 letters, digits, ".", "_", "-" or "@". */
export const NAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** A redemption or invitation code's status. */
export const CODE_STATUSES = ['unused', 'used', 'expired', 'disabled'] as const;
export type CodeStatusName = (typeof CODE_STATUSES)[number];

/** Who may make their own account: nobody, anyone, or whoever has an invitation code. */
export const SIGN_UP_MODES = ['off', 'open', 'invitation'] as const;
export type SignUpMode = (typeof SIGN_UP_MODES)[number];

/** The ranges a dashboard covers. */
export const DASHBOARD_RANGES = ['24h', '7d', '30d'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

/** The answers the keys page works with: the contract's types (types only: no zod in the browser). */
export type { CreatedKey, KeyView } from '../../contract/api/keys.ts';
export type { ModelView } from '../../contract/api/account.ts';

/**
 * Device sign-in, the person's side (RFC 8628, contract 4.11): what the approval page sends and reads
 * under /api/console/device/, and the parameters of the device's own OAuth endpoints (form-encoded, as
 * RFC 6749 says, or a JSON object of strings; their answers are in ../deviceFlow.ts).
 */
import { z } from 'zod';
import { IsoTime, named } from './schema.ts';

export const UserCodeBody = named('UserCodeBody', z.strictObject({ user_code: z.string().min(1).max(32) }));
export const ApproveBody = named('ApproveBody', z.strictObject({
  user_code: z.string().min(1).max(32),
  models: z.array(z.string().min(1).max(256)).min(1, 'give at least one model, or null for every model').max(1000).nullable().optional().describe("narrow the key to these models (one at least); absent or null: every model the account may use"),
}));

/** POST /api/console/device/lookup: which client asks, and the models the key may be narrowed to. */
export const DeviceRequestView = named('DeviceRequest', z.strictObject({
  object: z.literal('console.device_request'),
  user_code: z.string(),
  client_name: z.string(),
  created_at: IsoTime,
  expires_at: IsoTime,
  account: z.string().nullable(),
  models: z.array(z.string()),
}));

/** POST /api/console/device/approve and deny. */
export const DeviceDecision = named('DeviceDecision', z.strictObject({
  object: z.literal('console.device_request'),
  user_code: z.string(),
  client_name: z.string(),
  approved: z.boolean(),
  models: z.array(z.string()).nullable().optional(),
}));

/** POST /api/oauth/device_authorization (RFC 8628 section 3.1). */
export const DeviceAuthorizationParams = named('DeviceAuthorizationParams', z.object({
  client_id: z.string().min(1).max(100),
  client_name: z.string().max(100).optional().describe('shown to the approver, e.g. "VS Code on lab-pc"'),
}));

/** POST /api/oauth/token (RFC 8628 section 3.4). */
export const DeviceTokenParams = named('DeviceTokenParams', z.object({
  grant_type: z.literal('urn:ietf:params:oauth:grant-type:device_code'),
  device_code: z.string().min(1).max(128),
}));

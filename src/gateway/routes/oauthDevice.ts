/**
 * Device sign-in, the device's side (RFC 8628, contract 4.11): POST /api/oauth/device_authorization
 * starts a request and answers its device code (the device keeps it) and user code (the person types
 * or confirms it at /device); POST /api/oauth/token with the device code answers, once the user did,
 * a new API key as access_token. Errors in RFC 6749's body (http/oauth.ts says why; api.ts writes them).
 *
 * Pending and slow-down polls are not request logs (a waiting editor polls every few seconds for
 * minutes); everything else is, by path and status only: the device code travels in the body, which
 * no log ever holds.
 */
import { DEVICE_GRANT_TYPE, DEVICE_PAGE_PATH } from '../../contract/index.ts';
import { MAX_CLIENT_NAME_LENGTH } from '../accounts/deviceGrants.ts';
import { issueDeviceKey } from '../deviceKeys.ts';
import { readBody } from '../http/body.ts';
import { noStore, OAuthError, oauthParams, requiredParam } from '../http/oauth.ts';
import { requestOrigin } from '../http/origin.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { sourceOf } from './session.ts';

/** A few short parameters: anything larger is refused before it is read. */
const MAX_OAUTH_BODY_BYTES = 8 * 1024;
const MAX_CLIENT_ID_LENGTH = 100;
/** Device codes are 43 characters; a longer one is not ours. */
const MAX_DEVICE_CODE_LENGTH = 128;

async function paramsOf(gw: Gateway, ctx: RequestContext): Promise<ReadonlyMap<string, string>> {
  return oauthParams(ctx.req, await readBody(ctx.req, { ...gw.body, maxBytes: MAX_OAUTH_BODY_BYTES }, ctx.started));
}

/** RFC 8628 section 3.1: client_id (any: these are public clients), and client_name (RFC 7591's name) shown to the approver. */
export const deviceAuthorization: ApiHandler<'startDeviceAuthorization'> = async (gw, ctx) => {
  const params = await paramsOf(gw, ctx);
  const clientId = requiredParam(params, 'client_id', MAX_CLIENT_ID_LENGTH);
  const clientName = (params.get('client_name') ?? '').trim() || clientId;
  if (clientName.length > MAX_CLIENT_NAME_LENGTH) throw new OAuthError('invalid_request', `The parameter client_name is longer than ${MAX_CLIENT_NAME_LENGTH} characters.`);
  const started = gw.console.devices.start(clientName, sourceOf(ctx));
  if (!started.started) {
    const why = started.full === 'source' ? 'Too many sign-in requests from this address are waiting.' : 'Too many sign-in requests are waiting.';
    throw new OAuthError('temporarily_unavailable', `${why} Retry in ${started.retryAfterSeconds} s.`, started.full === 'source' ? 429 : 503, { 'Retry-After': String(started.retryAfterSeconds) });
  }
  const page = `${requestOrigin(ctx.req, ctx.trustProxy)}${DEVICE_PAGE_PATH}`;
  noStore(ctx.res);
  return {
    logged: true,
    body: {
      device_code: started.deviceCode,
      user_code: started.userCode,
      verification_uri: page,
      // The user code may be in a URL (it collects nothing by itself); the device code never is.
      verification_uri_complete: `${page}?user_code=${encodeURIComponent(started.userCode)}`,
      expires_in: started.expiresInSeconds,
      interval: started.intervalSeconds,
    },
  };
};

/** RFC 8628 section 3.4 and 3.5. */
export const token: ApiHandler<'pollDeviceToken'> = async (gw, ctx) => {
  const params = await paramsOf(gw, ctx);
  const grantType = requiredParam(params, 'grant_type', 200);
  if (grantType !== DEVICE_GRANT_TYPE) throw new OAuthError('unsupported_grant_type', `This gateway issues keys only for grant_type ${DEVICE_GRANT_TYPE}.`);
  const deviceCode = requiredParam(params, 'device_code', MAX_DEVICE_CODE_LENGTH);
  const polled = gw.console.devices.poll(deviceCode);
  switch (polled.state) {
    case 'unknown':
      throw new OAuthError('invalid_grant', 'No sign-in request has this device code: it was never issued, was already answered, or the gateway restarted. Start the sign-in again.');
    case 'expired':
      throw new OAuthError('expired_token', 'The sign-in request expired before it was approved. Start the sign-in again.');
    case 'denied':
      throw new OAuthError('access_denied', 'The sign-in request was denied in the console.');
    case 'pending':
      ctx.noLog = true;
      throw new OAuthError('authorization_pending', 'Waiting for the user to approve the request in the console.');
    case 'slow_down':
      ctx.noLog = true;
      throw new OAuthError('slow_down', `Polled too soon: poll every ${polled.intervalSeconds} s from now on.`);
    case 'approved': {
      const issued = await issueDeviceKey(gw, polled.decision, polled.clientName);
      if (!issued) throw new OAuthError('access_denied', 'The user who approved the request can no longer give keys (disabled, or moved to another account).');
      ctx.log.accountId = issued.key.accountId;
      noStore(ctx.res);
      return { logged: true, body: { access_token: issued.secret, token_type: 'Bearer', key_name: issued.key.name } };
    }
  }
};

/**
 * The routes of gateway settings and self sign-up (issue 10): a visitor signs up (when the admins allow
 * it), and admins change the settings and make, list and disable invitation codes. Beside the others in
 * the one table (routes.ts).
 */
import { SessionAnswer, SignUpBody, SIGN_UP_PATH } from './session.ts';
import { ADMIN_SETTINGS_PATH, SettingsAnswer, SettingsBody } from './settings.ts';
import { DisableCodesBody } from './codes.ts';
import {
  ADMIN_INVITATIONS_DISABLE_PATH, ADMIN_INVITATIONS_PATH, CreatedInvitations, CreateInvitationsBody, InvitationList, InvitationsDisabled, InvitationsQuery,
} from './invitations.ts';
import type { ApiRoute } from './route.ts';

export const SETTINGS_ROUTES = {
  signUp: {
    method: 'POST', path: SIGN_UP_PATH, tag: 'session', summary: 'Make your own user, on a new account of its name, and sign in: when an admin turned sign-up on', auth: 'sign_in', body: SignUpBody,
    description: 'GET /api/console/session says whether sign-up is open and whether it takes an invitation code. Throttled per client address.',
    response: { status: 201, schema: SessionAnswer },
    errors: ['sign_up_closed', 'invitation_required', 'invitation_invalid', 'password_too_short', 'sign_up_name_taken', 'sign_up_throttled', 'password_checks_busy'],
  },
  getSettings: {
    method: 'GET', path: ADMIN_SETTINGS_PATH, tag: 'settings', summary: 'The gateway settings, a default where none is set', auth: 'admin',
    response: { status: 200, schema: SettingsAnswer }, errors: [],
  },
  changeSettings: {
    method: 'POST', path: ADMIN_SETTINGS_PATH, tag: 'settings', summary: 'Change the settings given (null: back to the default); every instance applies them within a second', auth: 'admin', body: SettingsBody,
    response: { status: 200, schema: SettingsAnswer }, errors: [],
  },
  listInvitations: {
    method: 'GET', path: ADMIN_INVITATIONS_PATH, tag: 'codes', summary: 'Invitation codes, newest first, never a code itself', auth: 'admin', query: InvitationsQuery,
    response: { status: 200, schema: InvitationList }, errors: [],
  },
  createInvitations: {
    method: 'POST', path: ADMIN_INVITATIONS_PATH, tag: 'codes', summary: 'A batch of single-use invitation codes for sign-up, answered this once', auth: 'admin', body: CreateInvitationsBody,
    response: { status: 201, schema: CreatedInvitations }, errors: [],
  },
  disableInvitations: {
    method: 'POST', path: ADMIN_INVITATIONS_DISABLE_PATH, tag: 'codes', summary: 'Stop the unused invitation codes of an id or a batch', auth: 'admin', body: DisableCodesBody,
    response: { status: 200, schema: InvitationsDisabled }, errors: ['invitation_not_found'],
  },
} as const satisfies Record<string, ApiRoute>;

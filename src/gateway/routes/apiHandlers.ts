/**
 * The handler of every route of the management API's table (contract api/routes.ts), by route id: the
 * type asks for one per route, and there is no way to serve a route the table (and so the OpenAPI
 * document) lacks.
 */
import type { ApiHandlers } from './api.ts';
import { me, logs } from './console.ts';
import { account, login, logout, session, setup } from './consoleSession.ts';
import { createOwnKey, keyAction, keys, rotateOwnKey, setOwnKeyLimits } from './consoleKeys.ts';
import { catalogue } from './consoleCatalog.ts';
import { playgroundChat } from './consolePlayground.ts';
import { accountLogs, adminLogs } from './consoleLogs.ts';
import { accountLogDetail, adminLogDetail } from './consoleLogDetail.ts';
import { dashboard, gatewayDashboard } from './consoleDashboard.ts';
import { changePassword } from './consolePassword.ts';
import { redeem } from './consoleRedeem.ts';
import { approve, deny, lookup } from './consoleDevice.ts';
import { adminCreateUser, adminDisableUser, adminEnableUser, adminResetPassword, adminSetAdmin, adminTopUp, adminUsers } from './consoleAdmin.ts';
import { auditLog } from './consoleAudit.ts';
import { adminCodes, adminCreateCodes, adminDisableCodes } from './consoleCodes.ts';
import { adminCreateToken, adminRevokeToken, adminTokens } from './consoleTokens.ts';
import { adminAddChannel, adminChannelAction, adminChannels, adminDeleteChannel, adminTestChannel, adminUpdateChannel } from './consoleChannels.ts';
import { adminModels, adminPriceModel } from './consolePrices.ts';
import { deviceAuthorization, token } from './oauthDevice.ts';
import { adminChangeSettings, adminSettings } from './consoleSettings.ts';
import { adminCreateInvitations, adminDisableInvitations, adminInvitations } from './consoleInvitations.ts';
import { signUpHandler } from './consoleSignUp.ts';
import { openApi } from './openapi.ts';
import { status } from './status.ts';

export const API_HANDLERS: ApiHandlers = {
  getStatus: status,
  getOpenApi: openApi,
  startDeviceAuthorization: deviceAuthorization,
  pollDeviceToken: token,
  getMe: me,
  listKeyLogs: logs,
  signIn: login,
  signOut: logout,
  getSession: session,
  setUp: setup,
  listKeys: keys,
  playgroundChat,
  createKey: createOwnKey,
  disableKey: keyAction('disable'),
  enableKey: keyAction('enable'),
  deleteKey: keyAction('delete'),
  rotateKey: rotateOwnKey,
  setKeyLimits: setOwnKeyLimits,
  listModels: catalogue,
  listAccountLogs: accountLogs,
  getAccountLog: accountLogDetail,
  getDashboard: dashboard,
  listAdminLogs: adminLogs,
  getAdminLog: adminLogDetail,
  getGatewayDashboard: gatewayDashboard,
  changePassword,
  getAccount: account,
  redeemCode: redeem,
  lookUpDevice: lookup,
  approveDevice: approve,
  denyDevice: deny,
  listUsers: adminUsers,
  createUser: adminCreateUser,
  disableUser: adminDisableUser,
  enableUser: adminEnableUser,
  resetUserPassword: adminResetPassword,
  setUserAdmin: adminSetAdmin,
  topUpAccount: adminTopUp,
  listAudit: auditLog,
  listCodes: adminCodes,
  createCodes: adminCreateCodes,
  disableCodes: adminDisableCodes,
  listAdminTokens: adminTokens,
  createAdminToken: adminCreateToken,
  revokeAdminToken: adminRevokeToken,
  listChannels: adminChannels,
  addChannel: adminAddChannel,
  updateChannel: adminUpdateChannel,
  disableChannel: adminChannelAction('disable'),
  enableChannel: adminChannelAction('enable'),
  deleteChannel: adminDeleteChannel,
  testChannel: adminTestChannel,
  listAdminModels: adminModels,
  priceModel: adminPriceModel,
  signUp: signUpHandler,
  getSettings: adminSettings,
  changeSettings: adminChangeSettings,
  listInvitations: adminInvitations,
  createInvitations: adminCreateInvitations,
  disableInvitations: adminDisableInvitations,
};

/**
 * Which page shows at which address. Signed-in pages sit in the layout with the menu (admin ones only
 * for admins: the server refuses their data to anyone else anyway); the public ones stand alone.
 */
import type { ComponentType } from 'preact';
import { AccountPage } from './pages/Account.tsx';
import { DashboardPage } from './pages/Dashboard.tsx';
import { DevicePage } from './pages/Device.tsx';
import { KeyConsolePage } from './pages/KeyConsole.tsx';
import { KeysPage } from './pages/Keys.tsx';
import { LogsPage } from './pages/Logs.tsx';
import { ModelsPage } from './pages/Models.tsx';
import { PlaygroundPage } from './pages/Playground.tsx';
import { SetupPage } from './pages/Setup.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { SignUpPage } from './pages/SignUp.tsx';
import { TopUpPage } from './pages/TopUp.tsx';
import { AdminAuditPage } from './pages/admin/Audit.tsx';
import { AdminChannelsPage } from './pages/admin/Channels.tsx';
import { AdminCodesPage } from './pages/admin/Codes.tsx';
import { AdminInvitationsPage } from './pages/admin/Invitations.tsx';
import { AdminLogsPage } from './pages/admin/Logs.tsx';
import { AdminModelPricesPage } from './pages/admin/ModelPrices.tsx';
import { AdminOverviewPage } from './pages/admin/Overview.tsx';
import { AdminSettingsPage } from './pages/admin/Settings.tsx';
import { AdminTokensPage } from './pages/admin/Tokens.tsx';
import { AdminUsersPage } from './pages/admin/Users.tsx';

/** Pages anyone can open, signed in or not. */
export const PUBLIC_PAGES: Readonly<Record<string, ComponentType>> = {
  '/signin': SignInPage,
  '/signup': SignUpPage,
  '/setup': SetupPage,
  '/key': KeyConsolePage,
  '/device': DevicePage,
};

export const USER_PAGES: Readonly<Record<string, ComponentType>> = {
  '/': DashboardPage,
  '/keys': KeysPage,
  '/models': ModelsPage,
  '/playground': PlaygroundPage,
  '/logs': LogsPage,
  '/topup': TopUpPage,
  '/account': AccountPage,
};

export const ADMIN_PAGES: Readonly<Record<string, ComponentType>> = {
  '/admin': AdminOverviewPage,
  '/admin/users': AdminUsersPage,
  '/admin/channels': AdminChannelsPage,
  '/admin/models': AdminModelPricesPage,
  '/admin/codes': AdminCodesPage,
  '/admin/invitations': AdminInvitationsPage,
  '/admin/logs': AdminLogsPage,
  '/admin/tokens': AdminTokensPage,
  '/admin/audit': AdminAuditPage,
  '/admin/settings': AdminSettingsPage,
};

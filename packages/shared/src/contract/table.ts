import { accountCalls, captchaCalls, messagingCalls } from './accounts';
import { adminsCalls, rolesCalls } from './admins';
import { auditCalls } from './audit';
import { authCalls } from './auth';
import { budgetCalls } from './chat-budget';
import { chatDocsCalls } from './chat-docs';
import { chatExportCalls, chatShareAdminCalls } from './chat-export';
import { aiCalls, chatCalls, roomsAdminCalls, roomsMemberCalls, usageCalls } from './chat';
import { chatSearchCalls } from './chat-search';
import { dashboardCalls } from './dashboard';
import { membersAdminCalls } from './members';
import { siteSettingsCalls } from './site-settings';
import { uploadSettingsCalls } from './upload-settings';

/**
 * Every call of each area, keyed by path (DESIGN 5). The server registers each route from its
 * entry and a test fails on a route without one or an entry without a route; the web names calls
 * by these keys and takes their types from here (type imports only: no zod in the browser).
 */
export const adminTable = {
  ...authCalls.admin,
  ...captchaCalls.admin,
  ...messagingCalls,
  ...adminsCalls,
  ...rolesCalls,
  ...auditCalls,
  ...dashboardCalls,
  ...membersAdminCalls,
  ...siteSettingsCalls,
  ...uploadSettingsCalls,
  ...aiCalls,
  ...roomsAdminCalls,
  ...usageCalls,
  ...chatShareAdminCalls,
};

export const memberTable = {
  ...authCalls.member,
  ...captchaCalls.member,
  ...accountCalls,
  ...roomsMemberCalls,
  ...chatCalls,
  ...budgetCalls,
  ...chatSearchCalls,
  ...chatExportCalls,
  ...chatDocsCalls,
};

export type AdminTable = typeof adminTable;
export type MemberTable = typeof memberTable;

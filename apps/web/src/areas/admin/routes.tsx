import { createHashRouter, type RouteObject } from 'react-router';
import { AppRoot } from '@/features/app';
import { PageSpinner } from '@/components/page-spinner';
import { AdminLayout } from './layout/admin-layout';
import { IndexRedirect } from './routes/index-redirect';

/**
 * Hash routes of the admin app. Menu entries are "#/<url>"; an address no page answers shows the
 * not-found page inside the panel.
 */
export const adminRoutes: RouteObject[] = [
  {
    path: '/',
    element: <AppRoot area="admin" />,
    hydrateFallbackElement: <PageSpinner fullHeight />,
    children: [
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('./routes/login-page')).LoginPage }),
      },
      {
        element: <AdminLayout />,
        children: [
          { index: true, element: <IndexRedirect /> },
          {
            path: 'dashboard',
            lazy: async () => ({
              Component: (await import('./routes/dashboard-page')).DashboardPage,
            }),
          },
          {
            path: 'data/file_manager',
            lazy: async () => ({ Component: (await import('./routes/files-page')).FilesPage }),
          },
          {
            path: 'data/file_manager/select/:category',
            lazy: async () => ({
              Component: (await import('./routes/file-selector-page')).FileSelectorPage,
            }),
          },
          {
            path: 'system/outbox',
            lazy: async () => ({ Component: (await import('./routes/outbox-page')).OutboxPage }),
          },
          {
            path: 'system/message',
            lazy: async () => ({
              Component: (await import('./routes/messaging-page')).MessagingPage,
            }),
          },
          {
            path: 'system/admin',
            lazy: async () => ({ Component: (await import('./routes/admins-page')).AdminsPage }),
          },
          {
            path: 'system/role',
            lazy: async () => ({ Component: (await import('./routes/roles-page')).RolesPage }),
          },
          {
            path: 'member',
            lazy: async () => ({ Component: (await import('./routes/members-page')).MembersPage }),
          },
          {
            path: 'system/setting',
            lazy: async () => ({
              Component: (await import('./routes/site-settings-page')).SiteSettingsPage,
            }),
          },
          {
            path: 'system/upload',
            lazy: async () => ({
              Component: (await import('./routes/upload-settings-page')).UploadSettingsPage,
            }),
          },
          {
            path: 'system/audit',
            lazy: async () => ({ Component: (await import('./routes/audit-page')).AuditPage }),
          },
          {
            path: 'aigc/model',
            lazy: async () => ({
              Component: (await import('./routes/aigc-models-page')).AigcModelsPage,
            }),
          },
          {
            path: 'aigc/chat_room',
            lazy: async () => ({
              Component: (await import('./routes/aigc-rooms-page')).AigcRoomsPage,
            }),
          },
          {
            path: 'aigc/usage',
            lazy: async () => ({
              Component: (await import('./routes/aigc-usage-page')).AigcUsagePage,
            }),
          },
          {
            path: '*',
            lazy: async () => ({
              Component: (await import('./routes/not-found-page')).NotFoundPage,
            }),
          },
        ],
      },
    ],
  },
];

export function createAdminRouter() {
  return createHashRouter(adminRoutes);
}

import { createHashRouter, type RouteObject } from 'react-router';
import { AppRoot } from '@/features/app';
import { PageSpinner } from '@/components/page-spinner';
import { MemberLayout } from './member-layout';

/** Hash routes of the member app (SPEC 2.2); every page is loaded on demand. */
export const memberRoutes: RouteObject[] = [
  {
    path: '/',
    element: <AppRoot area="member" />,
    hydrateFallbackElement: <PageSpinner fullHeight />,
    children: [
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('./routes/login-page')).LoginPage }),
      },
      {
        path: 'register',
        lazy: async () => ({ Component: (await import('./routes/register-page')).RegisterPage }),
      },
      {
        path: 'forgot-password',
        lazy: async () => ({
          Component: (await import('./routes/forgot-password-page')).ForgotPasswordPage,
        }),
      },
      {
        element: <MemberLayout />,
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('./routes/home-page')).HomePage }),
          },
          {
            path: 'files',
            lazy: async () => ({ Component: (await import('./routes/files-page')).FilesPage }),
          },
          {
            path: 'profile',
            lazy: async () => ({ Component: (await import('./routes/profile-page')).ProfilePage }),
          },
          {
            path: 'share/:token',
            lazy: async () => ({ Component: (await import('./routes/share-page')).SharePage }),
          },
          {
            path: ':id',
            // The chat room fits the window below the header and scrolls inside itself.
            handle: { fullHeight: true },
            lazy: async () => ({ Component: (await import('./routes/detail-page')).DetailPage }),
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

export function createMemberRouter() {
  return createHashRouter(memberRoutes);
}

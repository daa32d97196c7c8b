import type { DashboardStatsMessages } from './zh-cn';

/** Dashboard numbers and charts, English. */
export const dashboardStatsEn: DashboardStatsMessages = {
  'dashboardStats.members': 'Members',
  'dashboardStats.admins': 'Administrators',
  'dashboardStats.files': 'Files',
  'dashboardStats.storage': 'Storage used',
  'dashboardStats.rooms': 'Chat rooms',
  'dashboardStats.messagesToday': 'Messages today',
  'dashboardStats.uploadsPerDay': 'Uploads per day',
  'dashboardStats.signupsPerDay': 'Sign-ups per day',
  'dashboardStats.storageByLibrary': 'Storage by library',
  'dashboardStats.window': '{{first}} to {{last}}',
  'dashboardStats.uploads': 'Uploads',
  'dashboardStats.signups': 'Sign-ups',
  'dashboardStats.noFiles': 'No files yet',
  'dashboardStats.library.image': 'Images',
  'dashboardStats.library.file': 'Files',
  'dashboardStats.library.video': 'Videos',
  'dashboardStats.library.audio': 'Audio',
  'dashboardStats.filesCount': '{{count}} file(s)',
};

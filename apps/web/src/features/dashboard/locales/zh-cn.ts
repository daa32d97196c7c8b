/** Dashboard numbers and charts, Simplified Chinese. */
export const dashboardStatsZhCN = {
  'dashboardStats.members': '会员',
  'dashboardStats.admins': '管理员',
  'dashboardStats.files': '文件',
  'dashboardStats.storage': '存储用量',
  'dashboardStats.rooms': '聊天室',
  'dashboardStats.messagesToday': '今日消息',
  'dashboardStats.uploadsPerDay': '每日上传',
  'dashboardStats.signupsPerDay': '每日注册',
  'dashboardStats.storageByLibrary': '各文件库存储',
  'dashboardStats.window': '{{first}} 至 {{last}}',
  'dashboardStats.uploads': '上传',
  'dashboardStats.signups': '注册',
  'dashboardStats.noFiles': '还没有文件',
  'dashboardStats.library.image': '图片',
  'dashboardStats.library.file': '文件',
  'dashboardStats.library.video': '视频',
  'dashboardStats.library.audio': '音频',
  'dashboardStats.filesCount': '{{count}} 个文件',
};

export type DashboardStatsKey = keyof typeof dashboardStatsZhCN;
export type DashboardStatsMessages = Record<DashboardStatsKey, string>;

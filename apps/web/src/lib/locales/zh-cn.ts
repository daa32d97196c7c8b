/**
 * Simplified Chinese, the default language. Keys are flat ("area.name") so that a message key can
 * travel as plain data (menu titles arrive from the server as keys).
 */
export const zhCN = {
  'app.name': 'Atrium',
  'app.newVersion': '页面代码已更新，是否立即刷新页面？',
  'app.loadFailed': '无法加载站点配置',
  'app.retry': '重试',

  // One entry each for the words every feature's forms and tables say alike.
  'common.save': '保存',
  'common.cancel': '取消',
  'common.delete': '删除',
  'common.edit': '编辑',
  'common.password': '密码',
  'common.passwordConfirm': '确认密码',
  'common.passwordMismatch': '两次输入的密码不一致',
  'common.required': '请填写此项',

  'dialog.title': '提示',
  'dialog.ok': '确定',
  'dialog.cancel': '取消',
  'loading.text': '加载中...',
  'copy.success': '复制成功',
  'copy.fail': '复制失败',

  'api.failedResponse': '请求失败(2)：{{response}}',
  'api.failedNetwork': '请求失败(1)：{{error}}',
  'api.notFound': '请求失败：地址不存在',
  'api.timeout': '请求超时（{{seconds}} 秒）',
  'api.networkError': '网络连接失败',
  'api.httpStatus': 'HTTP {{status}}',

  'lazy.notRegistered': 'LazyStore.name={{name}} 未注册',

  'theme.dark': '深色模式',
  'theme.light': '浅色模式',
  'language.label': '语言',
  'language.zh-CN': '简体中文',
  'language.en': 'English',

  'auth.login': '登录',
  'auth.logout': '退出登录',
  'auth.loggedOut': '已退出登录',
  'auth.username': '用户名',
  'auth.usernamePlaceholder': '用户名、邮箱或手机号',
  'auth.usernameRequired': '请输入用户名',
  'auth.password': '密码',
  'auth.passwordRequired': '请输入密码',
  'auth.submit': '登录',
  'auth.memberTitle': '登录 {{site}}',
  'auth.memberSubtitle': '欢迎回来，登录后继续',
  'auth.adminTitle': '管理后台',
  'auth.adminSubtitle': '使用管理员账号登录',
  'auth.backHome': '返回首页',
  'auth.signedInAs': '当前登录：{{name}}',

  'menu.open': '打开菜单',
  'menu.dashboard': '仪表盘',
  'menu.aigc': 'AI 内容',
  'menu.chatRooms': '聊天室',
  'menu.aiModels': 'AI 模型',
  'menu.usage': '用量统计',
  'menu.library': '资料库',
  'menu.files': '文件管理',
  'menu.filesView': '查看和选择文件',
  'menu.filesUpload': '上传',
  'menu.filesEdit': '添加和编辑分类、移动文件',
  'menu.filesDelete': '删除',
  'menu.system': '系统管理',
  'menu.admins': '管理员',
  'menu.roles': '角色权限',
  'menu.members': '会员管理',
  'menu.settings': '系统设置',
  'menu.uploadSettings': '上传设置',
  'menu.audit': '操作日志',
  'menu.outbox': '发件箱',
  'menu.messaging': '消息通道',

  'dashboard.greeting': '你好，{{name}}',
  'dashboard.intro': '这里是 {{site}} 的管理后台。',
  'dashboard.serverVersion': '服务端版本',
  'dashboard.pagesVersion': '页面版本',
  'dashboard.sections': '可访问的功能',
  'dashboard.noSections': '你的角色暂未分配任何功能，请联系超级管理员。',

  'noPermission.title': '没有可访问的页面',
  'noPermission.text': '你的角色暂未分配任何菜单权限，请联系超级管理员。',

  'member.footer': '© {{year}} {{site}}',

  'notFound.title': '页面不存在',
  'notFound.text': '你访问的地址不存在，可能已被移动或删除。',
  'notFound.home': '返回首页',

  'captcha.refresh': '点击刷新',
  'verify.get': '点击获取',
  'verify.countdown': '{{count}}s',
  'verify.again': '重新获取',
} as const;

export type MessageKey = keyof typeof zhCN;
export type Messages = Record<MessageKey, string>;

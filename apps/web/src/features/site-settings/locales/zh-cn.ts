/** Site settings, Simplified Chinese. */
export const settingsZhCN = {
  'settings.title': '站点设置',
  'settings.subtitle': '站点名称、标志、首页横幅和对外展示的内容。保存后会员端刷新即可看到。',
  'settings.section.site': '站点',
  'settings.section.home': '首页',
  'settings.section.content': '内容',
  'settings.section.advanced': '高级',
  'settings.section.selector': '文件选择器',
  'settings.selectorMode': '图片、视频等字段的选择方式',
  'settings.selectorModeHelp': '外部选择器在对话框中打开另一站点的文件库，选中后回传地址。',
  'settings.selectorBuiltin': '内置文件库',
  'settings.selectorExternal': '外部选择器',
  'settings.selectorServer': '外部选择器地址',
  'settings.selectorServerHelp':
    '对话框打开“地址/分类”，例如 https://media.example.com/selector/image。',
  'settings.selectorServerRequired': '使用外部选择器时请填写外部选择器地址',
  'settings.siteName': '站点名称',
  'settings.siteNamePlaceholder': '例如 Atrium',
  'settings.siteLanguage': '站点默认语言',
  'settings.siteLanguageHelp':
    '访客未自行选择语言、浏览器也未指明中文或英文时看到的语言；服务器回复未指明语言的请求时也使用它。',
  'settings.siteLanguageZhCN': '简体中文',
  'settings.siteLanguageEn': '英文',
  'settings.logo': '标志',
  'settings.logoHelp': '显示在页头站点名称左侧，建议使用方形或横向图片。',
  'settings.favicon': '网站图标',
  'settings.faviconHelp': '浏览器标签页上的小图标，建议 64 × 64 的 PNG。',
  'settings.banners': '首页横幅',
  'settings.bannersHelp': '按顺序轮播显示在会员首页顶部，拖动缩略图调整顺序，最多 {{max}} 张。',
  'settings.terms': '服务条款文档',
  'settings.termsHelp': '会员可以下载查看的条款文件。',
  'settings.about': '关于本站',
  'settings.aboutPlaceholder': '介绍一下这个站点…',
  'settings.metaTags': '额外的 meta 标签',
  'settings.metaTagsHelp':
    '写入会员端页面的 <meta name="名称" content="内容">，例如 description、keywords。',
  'settings.metaNameInvalid': '第 {{row}} 行的名称只能包含字母、数字和 : . _ -，并以字母开头',
  'settings.metaNameMissing': '第 {{row}} 行填写了内容但没有名称',
  'settings.advanced': '高级配置（JSON）',
  'settings.advancedHelp': '供扩展功能读取的 JSON；格式错误时无法保存。',
  'settings.discard': '放弃修改',
  'settings.noPermission': '你没有修改站点设置的权限。',
  'settings.loadFailed': '站点设置加载失败。',
  'settings.retry': '重试',
};

export type SettingsKey = keyof typeof settingsZhCN;
export type SettingsMessages = Record<SettingsKey, string>;

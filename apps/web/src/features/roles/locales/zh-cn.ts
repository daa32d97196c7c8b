/** Roles and permission rules, Simplified Chinese. */
export const rolesZhCN = {
  'roles.title': '角色权限',
  'roles.subtitle': '角色持有权限规则；管理员持有角色。修改在其管理员的下一次请求时生效。',
  'roles.new': '新建角色',
  'roles.list': '全部角色',
  'roles.empty': '还没有角色',
  'roles.adminCount': '{{count}} 位管理员',
  'roles.ruleCount': '{{count}} 条规则',
  'roles.name': '角色名称',
  'roles.namePlaceholder': '例如：内容编辑',
  'roles.required': '请填写此项',
  'roles.menuRules': '菜单权限',
  'roles.menuRulesHelp': '勾选上级菜单即包含其下全部页面（包括以后新增的）。',
  'roles.customRules': '自定义规则',
  'roles.customRulesHelp':
    '用于菜单之外的权限，例如 aigc/chat_room* 或 data/file_manager/upload。* 匹配任意字符。',
  'roles.customPlaceholder': '输入规则后回车',
  'roles.invalidRule': '规则 {{rule}} 无效：只能使用字母、数字、_ / . : - 和 *',
  'roles.preview': '预览：该角色看到的菜单',
  'roles.previewCount': '可见 {{shown}} / {{total}} 个页面',
  'roles.hidden': '隐藏',
  'roles.storedRules': '保存的规则',
  'roles.noRules': '没有规则：该角色什么也看不到',
  'roles.create': '创建角色',
  'roles.confirmDelete': '删除角色 {{name}}？',
  'roles.deleteHeld': '仍有管理员持有该角色，请先从他们身上移除',
  'roles.newTitle': '新角色',
  'roles.noPermission': '你没有管理角色的权限。',
};

export type RolesKey = keyof typeof rolesZhCN;
export type RolesMessages = Record<RolesKey, string>;

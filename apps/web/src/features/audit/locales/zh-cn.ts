/** Audit log, Simplified Chinese. */
export const auditZhCN = {
  'audit.title': '操作日志',
  'audit.subtitle': '每一次后台写操作：谁、做了什么、对象、时间和 IP。',
  'audit.time': '时间',
  'audit.admin': '管理员',
  'audit.action': '操作',
  'audit.target': '对象',
  'audit.ip': 'IP',
  'audit.detail': '请求内容',
  'audit.allAdmins': '全部管理员',
  'audit.allActions': '全部操作',
  'audit.range': '时间范围',
  'audit.reset': '重置',
  'audit.total': '共 {{total}} 条',
  'audit.none': '—',
  'audit.noPermission': '你没有查看审计日志的权限。',
};

export type AuditKey = keyof typeof auditZhCN;
export type AuditMessages = Record<AuditKey, string>;

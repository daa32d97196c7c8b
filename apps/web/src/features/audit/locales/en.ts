import type { AuditMessages } from './zh-cn';

/** Audit log, English. */
export const auditEn: AuditMessages = {
  'audit.title': 'Audit log',
  'audit.subtitle': 'Every write in the admin area: who, what, on what, when and from where.',
  'audit.time': 'Time',
  'audit.admin': 'Administrator',
  'audit.action': 'Action',
  'audit.target': 'Target',
  'audit.ip': 'IP',
  'audit.detail': 'Request',
  'audit.allAdmins': 'All administrators',
  'audit.allActions': 'All actions',
  'audit.range': 'Time range',
  'audit.reset': 'Reset',
  'audit.total': '{{total}} in total',
  'audit.none': '—',
  'audit.noPermission': 'You may not read the audit log.',
};

import type { RolesMessages } from './zh-cn';

/** Roles and permission rules, English. */
export const rolesEn: RolesMessages = {
  'roles.title': 'Roles',
  'roles.subtitle':
    "A role holds permission rules; administrators hold roles. A change applies on its administrators' next request.",
  'roles.new': 'New role',
  'roles.list': 'All roles',
  'roles.empty': 'No roles yet',
  'roles.adminCount': '{{count}} admin(s)',
  'roles.ruleCount': '{{count}} rule(s)',
  'roles.name': 'Role name',
  'roles.namePlaceholder': 'e.g. Content editors',
  'roles.required': 'Please fill this in',
  'roles.menuRules': 'Menu permissions',
  'roles.menuRulesHelp':
    'Checking a parent covers every page under it, including pages added later.',
  'roles.customRules': 'Custom rules',
  'roles.customRulesHelp':
    'For permissions outside the menu, e.g. aigc/chat_room* or data/file_manager/upload. * matches any characters.',
  'roles.customPlaceholder': 'Type a rule and press Enter',
  'roles.invalidRule': 'Rule {{rule}} is invalid: use letters, digits, _ / . : - and *',
  'roles.preview': 'Preview: the menu this role sees',
  'roles.previewCount': '{{shown}} of {{total}} pages visible',
  'roles.hidden': 'hidden',
  'roles.storedRules': 'Stored rules',
  'roles.noRules': 'No rules: this role sees nothing',
  'roles.create': 'Create role',
  'roles.confirmDelete': 'Delete the role {{name}}?',
  'roles.deleteHeld': 'Administrators still hold this role: take it from them first',
  'roles.newTitle': 'New role',
  'roles.noPermission': 'You may not manage roles.',
};

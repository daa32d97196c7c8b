import type { RoomsMessages } from './zh-cn';

/** Chat rooms: the member home grid and the admin room list and editor, English. */
export const roomsEn: RoomsMessages = {
  'rooms.heroTitle': 'Welcome to {{site}}',
  'rooms.heroBack': 'Welcome back, {{name}}',
  'rooms.heroText': 'Pick a chat room and start talking with AI.',
  'rooms.search': 'Search rooms',
  'rooms.count': '{{count}} rooms',
  'rooms.empty': 'No chat rooms are open yet',
  'rooms.noMatch': 'No room matches “{{keyword}}”',
  'rooms.loadFailed': 'The chat rooms could not be loaded',
  'rooms.retry': 'Retry',
  'rooms.noModel': 'No model yet',
  'rooms.vision': 'Sees images',
  'rooms.loginCta': 'Sign in to start chatting',

  'rooms.adminTitle': 'Chat rooms',
  'rooms.adminSubtitle':
    'The AI chat rooms on the member home page: cover, introduction, model, system prompt and generation parameters.',
  'rooms.noPermission': 'You may not manage chat rooms (aigc/chat_room).',
  'rooms.new': 'New room',
  'rooms.colCover': 'Cover',
  'rooms.colTitle': 'Title',
  'rooms.colModel': 'Model',
  'rooms.colEnabled': 'Enabled',
  'rooms.colSort': 'Order',
  'rooms.colUpdated': 'Updated',
  'rooms.colActions': 'Actions',
  'rooms.moveUp': 'Move up',
  'rooms.moveDown': 'Move down',
  'rooms.confirmDelete':
    'Delete the room “{{title}}”? Every member conversation in it is deleted too.',
  'rooms.none': 'Not set',
  'rooms.modelMissing': 'Model deleted',
  'rooms.editTitle': 'Edit room',
  'rooms.createTitle': 'New room',
  'rooms.fieldTitle': 'Title',
  'rooms.fieldCover': 'Cover image',
  'rooms.fieldDescription': 'Introduction',
  'rooms.fieldDescriptionHint':
    'Scripts, event attributes and javascript: links are removed on save.',
  'rooms.fieldModel': 'Model',
  'rooms.fieldModelNone': 'None for now (members are told no model is set up)',
  'rooms.fieldModelDisabled': ' (disabled)',
  'rooms.fieldSystemPrompt': 'System prompt',
  'rooms.fieldParams': 'Generation parameters (JSON)',
  'rooms.fieldParamsHint':
    'Allowed: temperature, top_p, max_tokens, presence_penalty, frequency_penalty, seed, stop',
  'rooms.paramsInvalid': 'Not a valid JSON object',
  'rooms.fieldPrompts': 'Suggested prompts',
  'rooms.fieldIntroVideo': 'Intro video',
  'rooms.fieldIntroAudio': 'Intro audio',
  'rooms.fieldDownloads': 'Downloads',
  'rooms.fieldDownloadsHint':
    'Files members can download from the room, in this order; at most {{max}}.',
  'rooms.fieldEnabled': 'Enabled',
  'rooms.fieldBudget': "Room's budget",
  'rooms.fieldBudgetHint':
    "Shared by all members of the room, per UTC day and month; 0 means no limit. Applies together with each member's own budget.",
  'rooms.fieldSort': 'Order (smaller first)',
  'rooms.required': '{{field}} is required',
  'rooms.discardChanges': 'Close without saving? The changes you made to this room will be lost.',
};

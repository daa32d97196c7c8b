import type { ChatDocsMessages } from './docs-zh-cn';

/** Documents as chat context (issue 18): English. */
export const chatDocsEn: ChatDocsMessages = {
  'chatDocs.attach': 'Documents',
  'chatDocs.attachHint':
    'Choose PDF, TXT, MD, DOCX or CSV files from My files (up to {{max}} a conversation); answers cite their passages',
  'chatDocs.unsupported': 'Only PDF, TXT, MD, DOCX and CSV files can be used: skipped {{names}}',
  'chatDocs.full': 'A conversation holds at most {{max}} documents',
  'chatDocs.remove': 'Remove document {{name}}',
  'chatDocs.queued': 'Waiting',
  'chatDocs.running': 'Reading {{progress}}%',
  'chatDocs.done': 'Ready',
  'chatDocs.donePages': 'Ready · {{pages}} pages',
  'chatDocs.failed': 'Cannot be read',
  'chatDocs.notReadyHint':
    'Documents still being read are left out of answers until they are ready',
  'chatDocs.citations': 'Sources',
  'chatDocs.page': 'page {{page}}',
  'chatDocs.passageTitle': 'Source [{{n}}]',
  'chatDocs.openFile': 'Open file',
  'chatDocs.close': 'Close',
};

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
  'chatDocs.failedTitle': 'This file cannot be read: {{reason}}',
  'chatDocs.reason.pdf': 'it is not a valid PDF',
  'chatDocs.reason.password': 'it is protected by a password',
  'chatDocs.reason.word': 'it is not a valid Word document',
  'chatDocs.reason.text': 'it is not a text file, or its text is neither UTF-8 nor GB18030',
  'chatDocs.reason.scanned': 'the PDF has no text to read (a scanned PDF holds only images)',
  'chatDocs.reason.empty': 'it holds no text',
  'chatDocs.reason.large': 'it is larger than 50 MB',
  'chatDocs.reason.unpacked': 'it is too large when unpacked',
  'chatDocs.reason.tooMuchText': 'it holds more than 5,000,000 characters of text',
  'chatDocs.reason.pages': 'it has more than 3,000 pages',
  'chatDocs.reason.stopped': 'reading it stopped 3 times before the end',
  'chatDocs.reason.slow': 'reading it took too long',
  'chatDocs.reason.gone': 'the file is no longer stored',
  'chatDocs.reason.other': 'reading it failed',
  'chatDocs.notReadyHint':
    'Documents still being read are left out of answers until they are ready',
  'chatDocs.citations': 'Sources',
  'chatDocs.page': 'page {{page}}',
  'chatDocs.passageTitle': 'Source [{{n}}]',
  'chatDocs.openFile': 'Open file',
  'chatDocs.close': 'Close',
};

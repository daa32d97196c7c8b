import { shouldRetryUpload } from '@atrium/shared/limits';
import { t, type MessageKey, type MessageVars } from './i18n';

/**
 * The server answers in English, SPEC's words (`msg`). The texts it sends from a fixed set are
 * shown in the user's language: each has a key whose English text is the server's own, so the
 * English interface shows exactly what the server said. Anything else is shown as it came.
 */
const exact: Record<string, MessageKey> = {
  'Save Success': 'server.saveSuccess',
  'Add Success': 'server.addSuccess',
  'Edit Success': 'server.editSuccess',
  'Delete Success': 'server.deleteSuccess',
  Saved: 'server.saved',
  Enabled: 'server.enabled',
  Disabled: 'server.disabled',
  'Password changed': 'server.passwordChanged',
  'Test message sent': 'server.testMessageSent',
  'Verification code sent': 'server.codeSent',
  'Image Gallery': 'server.imageGallery',
  'File Gallery': 'server.fileGallery',
  'Video Gallery': 'server.videoGallery',
  'Audio Gallery': 'server.audioGallery',
  'No permission': 'server.noPermission',
  'Wrong captcha': 'server.wrongCaptcha',
  'Please enter the captcha': 'server.enterCaptcha',
  "The file's MD5 does not match the one declared at init": 'server.md5Mismatch',
  'No upload in progress for this file: start it with init': 'server.noUpload',
  'The stored part of this upload has expired': 'server.uploadExpired',
  'The stored part of this upload is gone': 'server.uploadGone',
  'The answer was interrupted (the server restarted). What was written is kept.':
    'server.answerInterrupted',
  'The answer was interrupted because the server shut down. What was written is kept.':
    'server.answerShutdown',
  'The answer was interrupted: the server writing it lost touch with the database for a while. What was written is kept.':
    'server.answerLostTouch',
  'The answer reached its length limit and was cut off. What was written is kept.':
    'server.answerLength',
  'Only the latest answer can be regenerated': 'server.notLastAnswer',
  'Only your own questions can be edited': 'server.notQuestion',
};

/**
 * The parts of a budget refusal (issue 18) in the user's language: the server's words by form
 * ("You have used today's…", "Your daily limit of…"), each with a key of its own.
 */
function budgetVars(m: RegExpExecArray, tooLittle: boolean): MessageVars {
  const room = m[1]?.startsWith('This room') ?? false;
  const month = m[2] === "this month's" || m[2] === 'monthly';
  const tokens = m[4];
  const whose: MessageKey = tooLittle
    ? room
      ? 'server.budgetRooms'
      : 'server.budgetYour'
    : room
      ? 'server.budgetRoomHas'
      : 'server.budgetYouHave';
  const period: MessageKey = tooLittle
    ? month
      ? 'server.budgetMonthly'
      : 'server.budgetDaily'
    : month
      ? 'server.budgetMonths'
      : 'server.budgetTodays';
  const amount: MessageKey = tokens
    ? tooLittle
      ? 'server.budgetLimitTokens'
      : 'server.budgetTokens'
    : 'server.budgetCost';
  return {
    whose: t(whose),
    period: t(period),
    amount: t(amount, { n: tokens ?? m[5] ?? '' }),
    resets: t(month ? 'server.budgetResetsMonth' : 'server.budgetResetsDay'),
  };
}

const patterns: [RegExp, MessageKey, (match: RegExpExecArray) => MessageVars][] = [
  [
    /^Please wait (\d+) s before requesting another code$/,
    'server.waitForCode',
    (m) => ({ seconds: m[1] ?? '' }),
  ],
  [
    /^The model stopped answering for (\d+) seconds, so the answer was cut off\. Try again\.$/,
    'server.modelIdle',
    (m) => ({ seconds: m[1] ?? '' }),
  ],
  [
    /^The model did not start answering within (\d+) seconds\. Try again later\.$/,
    'server.modelNoStart',
    (m) => ({ seconds: m[1] ?? '' }),
  ],
  [
    /^You have reached today's limit of (\d+) messages\. It resets at 00:00 UTC\.$/,
    'server.quotaMessages',
    (m) => ({ limit: m[1] ?? '' }),
  ],
  [
    /^(You have|This room has) used (today's|this month's) ((\d+) tokens|budget of ([\d.]+))\. The limit resets at (.+)\.$/,
    'server.budgetUsed',
    (m) => budgetVars(m, false),
  ],
  [
    /^(Your|This room's) (daily|monthly) (limit of (\d+) tokens|budget of ([\d.]+)) has (\d+ tokens|[\d.]+) left, too little for this message\. The limit resets at (.+)\.$/,
    'server.budgetTooLittle',
    (m) => ({ ...budgetVars(m, true), left: m[6] ?? '' }),
  ],
];

/** The upload protocol's restart marker (SPEC 4.5) is for the uploader, not for people. */
const marker = new RegExp(`\\s*\\(${shouldRetryUpload}\\)$`);

/** A server message in the user's language (see above). */
export function serverText(msg: string): string {
  const text = msg.replace(marker, '');
  const key = exact[text];
  if (key) return t(key);
  for (const [pattern, patternKey, vars] of patterns) {
    const match = pattern.exec(text);
    if (match) return t(patternKey, vars(match));
  }
  return text;
}

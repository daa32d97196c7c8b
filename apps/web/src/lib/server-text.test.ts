import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from './i18n';
import { serverText } from './server-text';

afterEach(() => setLanguage('zh-CN'));

const fixed = [
  'Save Success',
  'Add Success',
  'Edit Success',
  'Delete Success',
  'No permission',
  'Wrong captcha',
  'Verification code sent',
  "The file's MD5 does not match the one declared at init",
];

describe('server messages', () => {
  it('shows what the server sends in Chinese, with its numbers', () => {
    expect(serverText('Save Success')).toBe('保存成功');
    expect(serverText('No permission')).toBe('没有权限');
    expect(serverText('Wrong captcha')).toBe('图形验证码错误');
    expect(serverText('Please wait 42 s before requesting another code')).toBe(
      '请等待 42 秒后再获取验证码',
    );
    expect(
      serverText('The model did not start answering within 60 seconds. Try again later.'),
    ).toBe('模型在 60 秒内没有开始回答，请稍后再试。');
  });

  // The budget refusals exactly as the server words them (apps/server budgets.test.ts checks the
  // same texts against its `refusal`).
  const budgetRefusals: [string, string][] = [
    [
      "You have reached today's limit of 3 messages. It resets at 00:00 UTC.",
      '今天的 3 次提问已用完，UTC 0 点重置。',
    ],
    [
      "You have used today's 2000 tokens. The limit resets at 00:00 UTC.",
      '你今日的 2000 tokens 已用完，UTC 0 点重置。',
    ],
    [
      "This room has used this month's budget of 0.05. The limit resets at the start of next month (00:00 UTC).",
      '本聊天室本月的预算 0.05 已用完，下月 1 日 UTC 0 点重置。',
    ],
    [
      'Your daily limit of 2000 tokens has 12 tokens left, too little for this message. The limit resets at 00:00 UTC.',
      '你今日的 2000 tokens 只剩 12 tokens，不够这条消息使用，UTC 0 点重置。',
    ],
    [
      "This room's monthly budget of 1.5 has 0.000002 left, too little for this message. The limit resets at the start of next month (00:00 UTC).",
      '本聊天室本月的预算 1.5 只剩 0.000002，不够这条消息使用，下月 1 日 UTC 0 点重置。',
    ],
  ];

  it('shows budget refusals in Chinese, and in English as sent', () => {
    for (const [sent, chinese] of budgetRefusals) expect(serverText(sent)).toBe(chinese);
    setLanguage('en');
    for (const [sent] of budgetRefusals) expect(serverText(sent)).toBe(sent);
  });

  it('never shows the upload protocol marker', () => {
    expect(
      serverText("The file's MD5 does not match the one declared at init (ShouldRetryUpload)"),
    ).toBe('文件校验失败（MD5 与开始上传时不一致），请重新上传');
    expect(serverText('Something new (ShouldRetryUpload)')).toBe('Something new');
  });

  it('shows English exactly as the server wrote it, and unknown texts as they came', () => {
    setLanguage('en');
    for (const text of fixed) expect(serverText(text)).toBe(text);
    expect(serverText('Please wait 7 s before requesting another code')).toBe(
      'Please wait 7 s before requesting another code',
    );
    setLanguage('zh-CN');
    expect(serverText('title: at most 100 characters')).toBe('title: at most 100 characters');
  });
});

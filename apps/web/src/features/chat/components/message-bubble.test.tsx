import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { MessageRecord } from '@atrium/shared/contract/chat';
import { catalogue } from '@atrium/shared/messages/catalogue';
import { setLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/test-utils/render';
import { MessageBubble } from './message-bubble';

const answer = (fields: Partial<MessageRecord>): MessageRecord => ({
  id: 2,
  conversationId: 1,
  role: 'assistant',
  content: 'Half an answer',
  images: [],
  status: 'interrupted',
  error: 'words the server stored',
  promptTokens: 0,
  completionTokens: 0,
  tokensEstimated: false,
  createdAt: 0,
  updatedAt: 0,
  ...fields,
});

function show(message: MessageRecord) {
  return renderWithProviders(
    <MessageBubble
      message={message}
      isLast
      busy={false}
      onStop={() => undefined}
      onRegenerate={() => undefined}
      onEdit={() => Promise.resolve(true)}
      onShowVersion={() => undefined}
    />,
  );
}

describe("an answer's stored error", () => {
  it('reads from its key and parameters in the language on screen, following a switch', async () => {
    const texts = catalogue['chat.answerInterrupted'];
    setLanguage('zh-CN');
    show(answer({ errorKey: 'chat.answerInterrupted', errorParams: {} }));
    expect(await screen.findByText(texts['zh-CN'])).toBeInTheDocument();
    act(() => setLanguage('en'));
    expect(await screen.findByText(texts.en)).toBeInTheDocument();
    expect(screen.queryByText('words the server stored')).toBeNull();
  });

  it('shows the text as stored when no key came with it', async () => {
    show(answer({ status: 'error' }));
    expect(await screen.findByText('words the server stored')).toBeInTheDocument();
  });
});

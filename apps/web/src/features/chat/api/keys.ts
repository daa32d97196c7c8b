/** Query keys of a member's chat. */
export const chatKeys = {
  conversations: (roomId: number) => ['aigc', 'conversations', roomId] as const,
  messages: (conversationId: number) => ['aigc', 'messages', conversationId] as const,
};

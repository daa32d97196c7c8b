/** Search over all of a member's conversations (issue 18), and opening what it found. */
export { registerChatSearch } from './chat-search.routes';

/**
 * A member's conversations (DESIGN 8): their messages as a tree of branches and versions, the
 * questions asked in them and their answers started, and the next question's budget.
 */
export { AskService } from './ask.service';
export { ChatBudgetQuery } from './budget-query';
export { branchPath, versionsByMessage } from './branches';
export { ChatRepository } from './chat.repository';
export { registerChatRoutes } from './chat.routes';
export { ChatService } from './chat.service';

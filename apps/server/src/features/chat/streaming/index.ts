/**
 * An answer on its way to the clients (DESIGN 8): the job holding its text in memory, its
 * channel and events, the SSE stream a client attaches to, the rows of answers being written,
 * and the takeover of answers whose writer died or lost the database (issue 26).
 */
export { AbandonedAnswers } from './abandoned';
export { AnswerRepository, indexQueuedMessages, type Tidied } from './answers.repository';
export { AppendThread } from './append-thread';
export {
  channelOf,
  EndMessages,
  Job,
  storable,
  type EndStatus,
  type GenerationRequest,
  type JobEvent,
  type Outcome,
} from './job';
export { sseSink } from './sse';
export { ChatStreams, type LiveAnswers, type StreamOptions } from './stream';
export { estimateTokens, floorTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './tokens';
export { WriterPresence } from './writers';

/**
 * Writing an answer (DESIGN 8): the one plan of its prompt (used by the budgets and sent to the
 * provider), the provider's stream read into the answer, and the answers this instance writes.
 */
export { planAnswer, type AnswerPlan, type EnabledRoom } from './answer-plan';
export { Generations, type GenerationOptions } from './generation';
export type { PromptRow } from './prompt';

/**
 * What members and rooms may spend (issue 18): budgets reserved before an answer and settled
 * after it, the daily quota and rate, the usage ledger and its admin page.
 */
export { ChatBudgets, type Reservation } from './budgets';
export { DeferredBumps } from './counter-bumps';
export { ChatQuotas } from './quota';
export { ShortCache } from './short-cache';
export { UsageRepository } from './usage.repository';
export { registerUsageRoutes } from './usage.routes';
export { UsageService } from './usage.service';

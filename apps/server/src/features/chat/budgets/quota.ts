import { chatQuota, defaultChatQuota, type ChatQuota } from '@atrium/shared/contract/chat';
import type { RateLimits } from '../../../http/rate-limits';
import type { SettingsRepository } from '../../../db/settings.repository';
import type { ShortCache } from './short-cache';

const QUOTA_SETTING = 'chatQuota';

/**
 * The admin setting `chatQuota`: each member's messages per day and budget (reserved by
 * `ChatBudgets`), and a per-minute rate limit (`chatMessagesPerMember`).
 */
export class ChatQuotas {
  constructor(
    private readonly deps: {
      settings: SettingsRepository;
      limits: RateLimits;
      now: () => number;
      cache: ShortCache;
    },
  ) {}

  async current(): Promise<ChatQuota> {
    const parsed = chatQuota.safeParse(await this.deps.settings.get(QUOTA_SETTING));
    return parsed.success ? parsed.data : defaultChatQuota;
  }

  async save(quota: ChatQuota): Promise<ChatQuota> {
    await this.deps.settings.set(QUOTA_SETTING, quota, this.deps.now());
    this.deps.cache.clear();
    return quota;
  }

  /** The quota as set, read through the short cache (other instances' changes within its TTL). */
  cached(): Promise<ChatQuota> {
    return this.deps.cache.get(QUOTA_SETTING, () => this.current());
  }

  /**
   * The per-minute burst limit (an atomic counter of the rate limiter, shared across instances
   * through Redis). The daily and monthly limits are reserved by `ChatBudgets` in the
   * transaction that records the answer: a check here, before the answer is counted, could be
   * passed by any number of parallel sends.
   */
  async consumeRate(memberId: number): Promise<void> {
    const quota = await this.cached();
    if (quota.messagesPerMinute > 0) {
      await this.deps.limits.consume(
        'chatMessagesPerMember',
        String(memberId),
        quota.messagesPerMinute,
      );
    }
  }
}

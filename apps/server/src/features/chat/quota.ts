import { chatQuota, defaultChatQuota, type ChatQuota } from '@atrium/shared/contract/chat';
import { ApiError } from '../../http/envelope';
import type { RateLimits } from '../../http/rate-limits';
import type { SettingsRepository } from '../../db/settings.repository';
import type { ShortCache } from './short-cache';
import { utcDay } from './tokens';
import type { UsageRepository } from './usage.repository';

const QUOTA_SETTING = 'chatQuota';

/** Per-member daily quotas (admin setting `chatQuota`) and a per-minute rate limit (`chatMessagesPerMember`). */
export class ChatQuotas {
  constructor(
    private readonly deps: {
      settings: SettingsRepository;
      usage: UsageRepository;
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

  /** Refuses with a message the member can act on when an answer would go over a limit. */
  async check(memberId: number): Promise<void> {
    const quota = await this.deps.cache.get(QUOTA_SETTING, () => this.current());
    if (quota.messagesPerMinute > 0) {
      await this.deps.limits.consume(
        'chatMessagesPerMember',
        String(memberId),
        quota.messagesPerMinute,
      );
    }
    if (quota.messagesPerDay === 0 && quota.tokensPerDay === 0) return;
    const used = await this.deps.usage.memberDay(memberId, utcDay(this.deps.now()));
    if (quota.messagesPerDay > 0 && used.messages >= quota.messagesPerDay) {
      throw new ApiError(
        `You have reached today's limit of ${quota.messagesPerDay} messages. It resets at 00:00 UTC.`,
      );
    }
    if (quota.tokensPerDay > 0 && used.promptTokens + used.completionTokens >= quota.tokensPerDay) {
      throw new ApiError(
        `You have used today's ${quota.tokensPerDay} tokens. The limit resets at 00:00 UTC.`,
      );
    }
  }
}

import { Code } from '@atrium/shared';
import { chatQuota, defaultChatQuota, type ChatQuota } from '@atrium/shared/contract/chat';
import type { Bus } from '../../bus/index';
import { ApiError } from '../../http/envelope';
import type { SettingsRepository } from '../settings/settings.repository';
import type { ShortCache } from './short-cache';
import { utcDay } from './tokens';
import type { UsageRepository } from './usage.repository';

export const QUOTA_SETTING = 'chatQuota';
const MINUTE_MS = 60_000;

/** Per-member daily quotas (admin setting `chatQuota`) and a per-minute rate limit on the bus. */
export class ChatQuotas {
  constructor(
    private readonly deps: {
      settings: SettingsRepository;
      usage: UsageRepository;
      bus: Bus;
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
      const count = await this.deps.bus.incr(`chat:rate:${memberId}`, MINUTE_MS);
      if (count > quota.messagesPerMinute) {
        throw new ApiError(
          `Too many messages: at most ${quota.messagesPerMinute} a minute. Wait a moment and try again.`,
          Code.TooManyRequests,
        );
      }
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

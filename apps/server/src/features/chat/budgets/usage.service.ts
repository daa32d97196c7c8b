import type { UsageResponse, UsageTotals, usageRequest } from '@atrium/shared/contract/chat';
import { fromMicros } from '@atrium/shared/contract/chat-budget';
import type { z } from 'zod';
import { fieldName } from '@atrium/shared/messages/catalogue';
import { ApiError, message, type MessageRef } from '../../../http/envelope';
import type { RoomsService } from '../../rooms/index';
import type { UsageRepository, UsageSums } from './usage.repository';

const MAX_DAYS = 366;
const MEMBERS_LISTED = 50;
const DAY_MS = 86_400_000;

const totalsOf = (s: UsageSums): UsageTotals => ({
  messages: s.messages,
  promptTokens: s.promptTokens,
  completionTokens: s.completionTokens,
  tokens: s.promptTokens + s.completionTokens,
  cost: fromMicros(s.cost),
});

/** The admin usage page: answers and tokens by day, room and member. */
export class UsageService {
  constructor(
    private readonly usage: UsageRepository,
    private readonly rooms: RoomsService,
  ) {}

  async summary(filter: z.output<typeof usageRequest>): Promise<UsageResponse> {
    const from = Date.parse(`${filter.from}T00:00:00Z`);
    const to = Date.parse(`${filter.to}T00:00:00Z`);
    const at = (field: 'from' | 'to', ref: MessageRef) => new ApiError({ ...ref, field });
    if (Number.isNaN(from)) throw at('from', message('chat.notADay', { field: fieldName('from') }));
    if (Number.isNaN(to)) throw at('to', message('chat.notADay', { field: fieldName('to') }));
    if (to < from) throw at('to', message('chat.toBeforeFrom'));
    if ((to - from) / DAY_MS >= MAX_DAYS)
      throw at('to', message('chat.tooManyDays', { max: MAX_DAYS }));

    const [days, rooms, members, titles] = await Promise.all([
      this.usage.byDay(filter),
      this.usage.byRoom(filter),
      this.usage.byMember(filter, MEMBERS_LISTED),
      this.rooms.adminList().then((list) => new Map(list.map((r) => [r.id, r.title]))),
    ]);
    const sum = days.reduce<UsageSums>(
      (acc, d) => ({
        messages: acc.messages + d.messages,
        promptTokens: acc.promptTokens + d.promptTokens,
        completionTokens: acc.completionTokens + d.completionTokens,
        cost: acc.cost + d.cost,
      }),
      { messages: 0, promptTokens: 0, completionTokens: 0, cost: 0 },
    );
    return {
      totals: totalsOf(sum),
      byDay: days.map((d) => ({ day: d.day, ...totalsOf(d) })),
      byRoom: rooms
        .map((r) => ({ roomId: r.roomId, title: titles.get(r.roomId) ?? '', ...totalsOf(r) }))
        .sort((a, b) => b.tokens - a.tokens || b.messages - a.messages),
      byMember: members.map((m) => ({
        memberId: m.memberId,
        username: m.username,
        ...totalsOf(m),
      })),
    };
  }
}

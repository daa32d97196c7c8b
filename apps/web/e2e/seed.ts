import type { BrowserContext } from '@playwright/test';
import type { RoomSaveRequest } from '@atrium/shared/contract/chat';
import { expect } from './fixtures';
import { addModel, adminAuth, call, signedIn, type Caller, type SignedIn } from './api-call';

export interface Account {
  username: string;
  password: string;
}

/** A member's caller, with the token its browser carries. */
export type Member = SignedIn<'member'>;

/**
 * Signs `account` in through the member API; with a browser context, the token goes into its
 * cookie, so its pages open signed in (the sign-in page itself is the accounts specs' concern).
 */
export async function signInMember(
  atrium: { url: string },
  account: Account,
  context?: BrowserContext,
): Promise<Member> {
  const member = await signedIn(atrium.url, 'member', account);
  if (context)
    await context.addCookies([{ name: 'api-token', value: member.token, url: atrium.url }]);
  return member;
}

/** Asks `content` in a conversation as `member` and waits until the answer is done. */
export async function askAndWait(
  member: Member,
  conversationId: number,
  content: string,
): Promise<{ assistantMessageId: number }> {
  const sent = await call(member, 'aigc/chat/send', { conversationId, content, images: [] });
  const id = sent.assistantMessage.id;
  await expect
    .poll(async () => {
      const list = await call(member, 'aigc/message/list', { conversationId });
      return list.records.find((m) => m.id === id)?.status;
    })
    .toBe('done');
  return { assistantMessageId: id };
}

export interface RoomSeed {
  /** The scripted provider's address (fake-openai). */
  providerUrl: string;
  model: { name: string; title: string; vision?: boolean };
  /** The room's fields but its model (the seeded one). */
  room: Omit<RoomSaveRequest, 'id' | 'modelId'>;
  /** Members made by the admin; the first is signed in. */
  members: [Account, ...Account[]];
  /** A conversation of the first member's in the room, with one question answered. */
  conversation?: { title?: string; ask: string };
}

export interface SeededRoom {
  admin: Caller<'admin'>;
  model: { id: number; providerId: number };
  roomId: number;
  member: Member;
  conversationId?: number;
}

/**
 * A provider and model at the scripted provider, a room using it, no daily quota, the members
 * and (when asked) a conversation holding an answered question, all through the API.
 */
export async function seedRoom(atrium: { url: string; adminPassword: string }, seed: RoomSeed) {
  const admin = await adminAuth(atrium);
  const model = await addModel(
    admin,
    {
      name: `${seed.model.title} provider`,
      baseUrl: seed.providerUrl,
      apiKey: 'sk-e2e-key-000000000000',
    },
    seed.model,
  );
  const room = await call(admin, 'aigc/chat_room/save', {
    id: 0,
    ...seed.room,
    modelId: model.id,
  });
  await call(admin, 'aigc/usage/quota_save', {
    messagesPerDay: 0,
    tokensPerDay: 0,
    messagesPerMinute: 0,
  });
  for (const account of seed.members) await call(admin, 'members/create', account);
  const member = await signInMember(atrium, seed.members[0]);
  const seeded: SeededRoom = { admin, model, roomId: room.id, member };
  if (seed.conversation) {
    const conversation = await call(member, 'aigc/conversation/create', {
      roomId: room.id,
      title: seed.conversation.title,
    });
    await askAndWait(member, conversation.id, seed.conversation.ask);
    seeded.conversationId = conversation.id;
  }
  return seeded;
}

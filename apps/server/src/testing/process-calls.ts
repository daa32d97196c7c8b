import type { AreaName } from '@atrium/shared/areas';
import { authHeaders } from './test-app';
import { postJson, type Deployment, type ServerProcess } from './processes';

export interface Caller {
  area: AreaName;
  token: string;
}

/** A call to a real server process that must succeed: answers `data`, or throws with `msg`. */
export async function callOk<T>(
  server: ServerProcess,
  path: string,
  body: unknown,
  as?: Caller,
): Promise<T> {
  const { json } = await postJson<T>(server, path, body, as ? authHeaders(as.area, as.token) : {});
  if (json.code !== 0) throw new Error(`${path}: ${json.msg}`);
  return json.data;
}

/** The first admin of a deployment, signed in on `server`. */
export async function signInAdmin(server: ServerProcess, deployment: Deployment): Promise<Caller> {
  const { token } = await callOk<{ token: string }>(server, '/admin/api/auth/login', {
    username: 'admin',
    password: deployment.env.ATRIUM_ADMIN_PASSWORD,
  });
  return { area: 'admin', token };
}

export interface ChatRoomSetup {
  admin: Caller;
  roomId: number;
  /** The member created for the test, signed in on `memberOn`. */
  member: Caller;
}

/**
 * What a chat test on real processes needs, made through the admin calls on `adminOn`: a
 * provider at `providerUrl`, a model, a room, no usage limits, and a member signed in on
 * `memberOn`.
 */
export async function setUpChatRoom(options: {
  deployment: Deployment;
  adminOn: ServerProcess;
  memberOn: ServerProcess;
  providerUrl: string;
  apiKey: string;
  credentials: { username: string; password: string };
}): Promise<ChatRoomSetup> {
  const { adminOn: server } = options;
  const admin = await signInAdmin(server, options.deployment);
  const provider = await callOk<{ id: number }>(
    server,
    '/admin/api/aigc/provider/save',
    { id: 0, name: 'Fake AI', baseUrl: options.providerUrl, apiKey: options.apiKey },
    admin,
  );
  const model = await callOk<{ id: number }>(
    server,
    '/admin/api/aigc/model/save',
    { id: 0, providerId: provider.id, name: 'fake-model', title: 'Fake', enabled: true },
    admin,
  );
  const room = await callOk<{ id: number }>(
    server,
    '/admin/api/aigc/chat_room/save',
    { id: 0, title: 'Room', modelId: model.id },
    admin,
  );
  await callOk(
    server,
    '/admin/api/aigc/usage/quota_save',
    { messagesPerDay: 0, tokensPerDay: 0, messagesPerMinute: 0 },
    admin,
  );
  await callOk(server, '/admin/api/members/create', options.credentials, admin);
  const { token } = await callOk<{ token: string }>(
    options.memberOn,
    '/api/auth/login',
    options.credentials,
  );
  return { admin, roomId: room.id, member: { area: 'member', token } };
}

import type { Db } from '../../db/index';
import { prepare } from '../../db/prepared';
import type { MemberRow } from '../../db/types';

export interface Member {
  id: number;
  username: string;
  email: string | null;
  phone: string | null;
  passwordHash: string;
  nickname: string;
  avatar: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface NewMember {
  username: string;
  email?: string | null;
  phone?: string | null;
  passwordHash: string;
  nickname?: string;
  avatar?: string;
  now: number;
}

const columns = [
  'id',
  'username',
  'email',
  'phone',
  'passwordHash',
  'nickname',
  'avatar',
  'disabled',
  'createdAt',
  'updatedAt',
] as const;

const toMember = (row: MemberRow): Member => ({ ...row, disabled: row.disabled === 1 });

/** Run on every signed-in member request. */
const findById = prepare((db: Db, id: number) =>
  db.selectFrom('members').select(columns).where('id', '=', id),
);

export class MembersRepository {
  constructor(private readonly db: Db) {}

  async findById(id: number): Promise<Member | undefined> {
    const row = await findById.executeTakeFirst(this.db, id);
    return row && toMember(row);
  }

  /**
   * The member whose username, e-mail or phone equals `login`. A username wins over another
   * member's e-mail or phone with the same text, so the answer never depends on row order.
   */
  async findByLogin(login: string): Promise<Member | undefined> {
    const rows = await this.db
      .selectFrom('members')
      .select(columns)
      .where((eb) =>
        eb.or([
          eb('username', '=', login),
          eb('email', '=', login.toLowerCase()),
          eb('phone', '=', login),
        ]),
      )
      .limit(3)
      .execute();
    const row =
      rows.find((r) => r.username === login) ??
      rows.find((r) => r.email === login.toLowerCase()) ??
      rows.find((r) => r.phone === login);
    return row && toMember(row);
  }

  async create(input: NewMember): Promise<Member> {
    const row = await this.db
      .insertInto('members')
      .values({
        username: input.username,
        email: input.email ? input.email.toLowerCase() : null,
        phone: input.phone ?? null,
        passwordHash: input.passwordHash,
        nickname: input.nickname ?? '',
        avatar: input.avatar ?? '',
        disabled: 0,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toMember(row);
  }

  async setDisabled(id: number, disabled: boolean, now: number): Promise<void> {
    await this.db
      .updateTable('members')
      .set({ disabled: disabled ? 1 : 0, updatedAt: now })
      .where('id', '=', id)
      .execute();
  }
}

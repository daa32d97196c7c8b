import { isLanguage, type Language } from '@atrium/shared/messages/catalogue';
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
  /** The language the member reads; undefined until set at registration or sign-in. */
  lang: Language | undefined;
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
  lang?: Language;
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
  'lang',
  'createdAt',
  'updatedAt',
] as const;

const toMember = (row: MemberRow): Member => ({
  ...row,
  disabled: row.disabled === 1,
  lang: isLanguage(row.lang) ? row.lang : undefined,
});

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
        lang: input.lang ?? null,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toMember(row);
  }

  /** Notes the language the member reads (their e-mails and SMS texts are written in it). */
  async setLanguage(id: number, lang: Language): Promise<void> {
    await this.db
      .updateTable('members')
      .set({ lang })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lang', 'is', null), eb('lang', '!=', lang)]))
      .execute();
  }

  /** The language of the member whose e-mail or phone is exactly this (normalised) value. */
  async languageByContact(kind: 'email' | 'phone', value: string): Promise<Language | undefined> {
    const row = await this.db
      .selectFrom('members')
      .select('lang')
      .where(kind, '=', value)
      .executeTakeFirst();
    return isLanguage(row?.lang) ? row.lang : undefined;
  }

  async setDisabled(id: number, disabled: boolean, now: number): Promise<void> {
    await this.db
      .updateTable('members')
      .set({ disabled: disabled ? 1 : 0, updatedAt: now })
      .where('id', '=', id)
      .execute();
  }
}

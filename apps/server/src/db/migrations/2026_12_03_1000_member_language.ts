import type { MigrationDb } from '../columns';

/**
 * The language a member reads (issue 27): `members.lang`, 'zh-CN' or 'en', set from the request's
 * language when they register and each time they sign in. Their e-mails and SMS texts
 * (verification codes, password reset) are written in it. Null until they next sign in: their
 * messages then use the language of the request that asked for them.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('members').addColumn('lang', 'text').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('members').dropColumn('lang').execute();
}

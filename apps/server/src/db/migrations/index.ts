import type { Migration } from 'kysely';
import * as foundation from './2026_11_21_0001_foundation';
import * as files from './2026_11_21_1000_files';
import * as accounts from './2026_11_21_2000_accounts';
import * as admin from './2026_11_21_3000_admin';
import * as chat from './2026_11_21_4000_chat';
import * as uploadChunkClaims from './2026_11_21_5000_upload_chunk_claims';
import * as instances from './2026_11_23_1000_instances';
import * as uploadGrants from './2026_11_24_2000_upload_grants';
import * as uploadInstances from './2026_11_24_3000_upload_instances';
import * as chatWriters from './2026_11_25_1000_chat_writers';
import * as uploadSettingsRule from './2026_11_26_1000_upload_settings_rule';
import * as fileAddresses from './2026_11_27_1000_file_addresses';
import * as roomDownloads from './2026_11_27_2000_room_downloads';
import * as chatBranches from './2026_11_27_3000_chat_branches';
import * as uploadOnePass from './2026_11_28_1000_upload_one_pass';
import * as fileRefs from './2026_11_29_2000_file_refs';
import * as uploadPrivacy from './2026_11_29_3000_upload_privacy';
import * as trash from './2026_11_29_6000_trash';
import * as fileSearch from './2026_11_29_7000_file_search';
import * as chatDocuments from './2026_11_30_1000_chat_documents';
import * as chatShares from './2026_11_30_3000_chat_shares';
import * as chatSearch from './2026_11_30_2000_chat_search';
import * as chatBudgets from './2026_11_30_4000_chat_budgets';
import * as chatBounds from './2026_12_01_1000_chat_bounds';
import * as memberLanguage from './2026_12_03_1000_member_language';
import * as chatMessageKeys from './2026_12_03_2000_chat_message_keys';
import * as libraryGeneration from './2026_12_04_1000_library_generation';
import * as chatMessageParts from './2026_12_05_1000_chat_message_parts';
import * as categoryPageIndex from './2026_12_06_1000_category_page_index';
import * as chatFtsPending from './2026_12_07_1000_chat_fts_pending';
import * as chatUsageMessageIndex from './2026_12_07_2000_chat_usage_message_index';

/**
 * Every migration, imported statically so the esbuild bundle carries them (no file scanning).
 * Names sort in the order they run; add new ones below with a later timestamp.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_1000_files': files,
  '2026_11_21_2000_accounts': accounts,
  '2026_11_21_3000_admin': admin,
  '2026_11_21_4000_chat': chat,
  '2026_11_21_5000_upload_chunk_claims': uploadChunkClaims,
  '2026_11_23_1000_instances': instances,
  '2026_11_24_2000_upload_grants': uploadGrants,
  '2026_11_24_3000_upload_instances': uploadInstances,
  '2026_11_25_1000_chat_writers': chatWriters,
  '2026_11_26_1000_upload_settings_rule': uploadSettingsRule,
  '2026_11_27_1000_file_addresses': fileAddresses,
  '2026_11_27_2000_room_downloads': roomDownloads,
  '2026_11_27_3000_chat_branches': chatBranches,
  '2026_11_28_1000_upload_one_pass': uploadOnePass,
  '2026_11_29_2000_file_refs': fileRefs,
  '2026_11_29_3000_upload_privacy': uploadPrivacy,
  '2026_11_29_6000_trash': trash,
  '2026_11_29_7000_file_search': fileSearch,
  '2026_11_30_1000_chat_documents': chatDocuments,
  '2026_11_30_3000_chat_shares': chatShares,
  '2026_11_30_2000_chat_search': chatSearch,
  '2026_11_30_4000_chat_budgets': chatBudgets,
  '2026_12_01_1000_chat_bounds': chatBounds,
  '2026_12_03_1000_member_language': memberLanguage,
  '2026_12_03_2000_chat_message_keys': chatMessageKeys,
  '2026_12_04_1000_library_generation': libraryGeneration,
  '2026_12_05_1000_chat_message_parts': chatMessageParts,
  '2026_12_06_1000_category_page_index': categoryPageIndex,
  '2026_12_07_1000_chat_fts_pending': chatFtsPending,
  '2026_12_07_2000_chat_usage_message_index': chatUsageMessageIndex,
};

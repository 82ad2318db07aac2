import type { Migration } from 'kysely';
import * as m001 from './001_foundation.ts';
import * as m002 from './002_credits.ts';
import * as m003 from './003_tts.ts';
import * as m004 from './004_payments.ts';
import * as m005 from './005_api_keys.ts';
import * as m006 from './006_onboarding.ts';
import * as m007 from './007_credit_accounts.ts';
import * as m008 from './008_account_safety.ts';
import * as m009 from './009_tasks_media.ts';
import * as m010media from './010_media_uploads.ts';
import * as m010tasks from './010_tasks.ts';
import * as m012 from './012_voice_clones.ts';
import * as m014 from './014_audiobooks.ts';
import * as m015 from './015_audiobook_attribution.ts';
import * as m016 from './016_video_translation.ts';
import * as m017 from './017_translation_cache.ts';
import * as m018 from './018_asset_upload_ref.ts';
import * as m019 from './019_upload_claims.ts';
import * as m022 from './022_audiobook_sections.ts';
import * as m023 from './023_honest_voice_cards.ts';
import * as m024 from './024_honest_plan_features.ts';
import * as m025 from './025_task_stage_start.ts';
import * as m026 from './026_jobs_now_tasks.ts';
import * as m027 from './027_self_check.ts';

/** Every migration, in order. Names sort; add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_credits': m002,
  '003_tts': m003,
  '004_payments': m004,
  '005_api_keys': m005,
  '006_onboarding': m006,
  '007_credit_accounts': m007,
  '008_account_safety': m008,
  '009_tasks_media': m009,
  '010_tasks': m010tasks,
  '010_media_uploads': m010media,
  '012_voice_clones': m012,
  '014_audiobooks': m014,
  '015_audiobook_attribution': m015,
  '016_video_translation': m016,
  '017_translation_cache': m017,
  '018_asset_upload_ref': m018,
  '019_upload_claims': m019,
  '022_audiobook_sections': m022,
  '023_honest_voice_cards': m023,
  '024_honest_plan_features': m024,
  '025_task_stage_start': m025,
  '026_jobs_now_tasks': m026,
  '027_self_check': m027,
};

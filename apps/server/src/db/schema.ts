import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are integer milliseconds since the epoch; booleans are 0/1 (one shape on SQLite and PostgreSQL). */
export interface UsersTable {
  id: string;
  type: number;
  phone: string | null;
  email: string | null;
  nickname: string;
  avatar_key: string | null;
  password_hash: string | null;
  questionnaire_status: number;
  created_at: number;
  updated_at: number;
  /** Set when the account is cancelled; personal data is removed, the row stays for the ledger. */
  cancelled_at: number | null;
  /** Why an operator refused the account (type 1), and when (`users refuse`). */
  refused_reason: Generated<string | null>;
  refused_at: Generated<number | null>;
  /** Wrong passwords in a row; reset by a right one, a code sign-in or a password reset. */
  password_failures: Generated<number>;
  /** The next password try is heard from this time on (backoff). */
  password_retry_at: Generated<number | null>;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  /** Every rotation stays in one family; reuse of a rotated token revokes the family. */
  family_id: string;
  token_hash: string;
  device_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

export interface VerificationCodesTable {
  id: string;
  target: string;
  scene: string;
  code_hash: string;
  ip: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface DevOutboxTable {
  id: string;
  channel: string;
  to: string;
  subject: string;
  text: string;
  created_at: number;
}

export interface JobsTable {
  id: string;
  name: string;
  owner_id: string | null;
  idempotency_key: string | null;
  payload: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  progress: number;
  result: string | null;
  error: string | null;
  attempts: number;
  max_attempts: number;
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface FilesTable {
  key: string;
  owner_id: string;
  content_type: string;
  size: number;
  sha256: string;
  original_name: string;
  created_at: number;
}

export interface PlansTable {
  level: number;
  title: string;
  monthly_credits: number;
  /** JSON array of strings */
  features: string;
}

/**
 * A user's plan. Absent or level 100: the free plan. Credits of a paid plan are issued one period
 * at a time from the anchor (month-end clamped); `issued_periods` counts what was issued.
 */
export interface CreditAccountsTable {
  user_id: string;
  level: number;
  is_annual: number;
  anchor_at: number | null;
  expires_at: number | null;
  period_count: number;
  period_unit: 'month' | 'day';
  membership_id: string | null;
  issued_periods: number;
  /** JSON of the plan in force before this one ({level,title,expires_at,is_annual}) */
  previous: string | null;
  updated_at: number;
  /** PostgreSQL: bumped by every write to the user's credits (holds planned without a lock compare it). */
  version: number;
  /** When the plan next has work to catch up (a period to issue, or its end); null on the free plan. */
  due_at: number | null;
  /** `YYYY-MM` (China time) whose free-plan credits were issued; null before the first. */
  free_month: string | null;
}

export interface CreditLotsTable {
  id: string;
  user_id: string;
  source: 'membership' | 'topup' | 'gift' | 'redeem' | 'refund';
  amount: number;
  remaining: number;
  effective_at: number;
  expires_at: number;
  created_at: number;
  grant_key: string;
  remark: string;
}

export interface CreditHoldsTable {
  id: string;
  user_id: string;
  hold_key: string;
  tool: string;
  task_id: string;
  task_name: string;
  amount: number;
  captured: number | null;
  status: 'held' | 'captured' | 'released';
  created_at: number;
  settled_at: number | null;
  /** The API key that started the task (null for the workbench). */
  api_key_id: string | null;
  /**
   * A hold owned by a live process (a stream): the process instance and until when it vouches for
   * the hold (renewed while it works). The lease sweep releases an expired one. Null: durable work owns it.
   */
  lease_owner: Generated<string | null>;
  lease_until: Generated<number | null>;
}

export interface CreditHoldLotsTable {
  hold_id: string;
  lot_id: string;
  amount: number;
  /** Draw order, so a partial capture gives back the last-drawn credits first. */
  seq: number;
}

export interface CreditLedgerTable {
  id: string;
  user_id: string;
  lot_id: string;
  /** grant +, hold −, release +, expire − */
  kind: 'grant' | 'hold' | 'release' | 'expire';
  delta: number;
  hold_id: string | null;
  created_at: number;
  /** The API key whose call wrote the row (hold/release of a key's task). */
  api_key_id: string | null;
}

export interface RedeemBatchesTable {
  id: string;
  kind: 'plan' | 'credits';
  level: number | null;
  is_annual: number;
  months: number | null;
  days: number | null;
  credits: number | null;
  count: number;
  expires_at: number;
  note: string;
  created_at: number;
  voided_at: number | null;
}

export interface RedeemCodesTable {
  code: string;
  batch_id: string;
  used_by: string | null;
  used_at: number | null;
}

export interface RedeemAttemptsTable {
  id: string;
  user_id: string;
  succeeded: number;
  created_at: number;
}

export interface CreditExportsTable {
  id: string;
  user_id: string;
  job_id: string;
  start_time: number;
  end_time: number;
  file_key: string | null;
  file_name: string;
  created_at: number;
}

export interface VoicesTable {
  voice_id: string;
  /** null: the built-in catalogue; a user id: that user's own voice. */
  owner_id: string | null;
  engine: string;
  /** JSON: the engine voice (EngineVoice of @vw/engines) */
  engine_params: string;
  /** JSON array of model ids, the first is the default */
  model_ids: string;
  name: string;
  description: string;
  gender: string;
  language: string;
  age: string;
  accent: string;
  style: string;
  use_case: string;
  preview_text: string;
  preview_key: string | null;
  required_level: number;
  is_disabled: number;
  /** 2 = published */
  status: number;
  sort: number;
  created_at: number;
  updated_at: number;
}

export interface VoiceFavoritesTable {
  user_id: string;
  voice_id: string;
  created_at: number;
}

export interface PronunciationEntriesTable {
  user_id: string;
  word: string;
  /** tone-numbered pinyin, 'yin2 hang2' */
  pinyin: string;
  updated_at: number;
}

export interface TtsHistoryTable {
  id: string;
  user_id: string;
  tool: string;
  name: string;
  text: string;
  text_md5: string;
  voice_id: string;
  voice_name: string;
  model_id: string;
  speed: number;
  pitch: number;
  volume: number;
  format: 'mp3' | 'wav';
  characters: number;
  credits: number;
  /** ttsCacheKey of spec §3 */
  cache_key: string;
  /** MD5 of what else shapes the output (pitch, volume, format, dictionary entries used) */
  options_key: string;
  /** JSON: the synthesis plan (engine voice, dictionary snapshot) a resumed job reuses */
  options: string;
  hold_key: string | null;
  task_id: string | null;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  progress: number;
  sentences_total: number;
  sentences_done: number;
  failure_code: number | null;
  error: string | null;
  duration_ms: number;
  is_stale: number;
  audio_key: string | null;
  audio_size: number;
  srt_key: string | null;
  srt_size: number;
  wav_key: string | null;
  wav_size: number;
  /** JSON array of TtsSentence */
  sentences: string | null;
  created_at: number;
  updated_at: number;
  /** Set when the public API started it (webhooks, usage by key). */
  api_key_id: string | null;
  /** JSON figures of the speech self-check (migration 027), null before it. */
  self_check: string | null;
}

export interface TtsSentencesTable {
  history_id: string;
  idx: number;
  audio_key: string;
  sample_rate: number;
  samples: number;
  created_at: number;
}

export interface ProductsTable {
  product_id: string;
  product_type: number;
  title: string;
  level: number;
  months: number;
  recharge_credit: number;
  is_free_package: number;
  after_charge: number;
  is_annual: number;
  channel_details: string;
  is_disabled: number;
  updated_at: number;
}

export interface PaymentOrdersTable {
  id: string;
  user_id: string;
  product_id: string;
  product: string;
  pay_channel: string;
  provider: string;
  amount_fen: number;
  status: number;
  code_url: string | null;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  transaction_id: string | null;
  failure: string | null;
  updated_at: number;
}

export interface PaymentAttemptsTable {
  id: string;
  order_id: string;
  provider: string;
  transaction_id: string;
  amount_fen: number;
  paid_at: number;
  /** fulfilled | refund_pending | refunded | rejected (amount did not match; left to the operator) */
  outcome: string;
  /** notify | poll | reconcile */
  seen_by: string;
  created_at: number;
  refunded_at: number | null;
  refund_error: string | null;
}

export interface SandboxTradesTable {
  order_id: string;
  description: string;
  amount_fen: number;
  /** NOTPAY | SUCCESS | CLOSED | PAYERROR */
  state: string;
  expires_at: number;
  transaction_id: string | null;
  paid_at: number | null;
  payments: number;
  refunded_fen: number;
  refund_ids: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  key_hash: string;
  prefix: string;
  last4: string;
  credit_limit: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export interface ApiKeyUsageTable {
  key_id: string;
  /** YYYY-MM-DD (business date) */
  day: string;
  user_id: string;
  requests: number;
  characters: number;
}

export interface WebhookEndpointsTable {
  id: string;
  user_id: string;
  url: string;
  /** HMAC key of the signatures (needed in clear to sign). */
  secret: string;
  /** JSON array of event names */
  events: string;
  status: 'active' | 'disabled';
  consecutive_failures: number;
  last_status: 'succeeded' | 'failed' | 'retrying' | null;
  last_status_code: number | null;
  last_error: string | null;
  last_delivery_at: number | null;
  disabled_at: number | null;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  user_id: string;
  event: string;
  /** The exact JSON body that is signed and sent */
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface TasksTable {
  id: string;
  owner_id: string;
  tool: string;
  title: string;
  status: 'queued' | 'running' | 'paused' | 'succeeded' | 'failed' | 'cancelled';
  stage: string;
  progress: number;
  /** Task failure code of spec §8; 0 when none. */
  error_code: number;
  error: string | null;
  /** The pause point the task waits at (status paused). */
  pause_point: string | null;
  credits_estimated: number;
  credits_held: number;
  credits_captured: number;
  /** The credit hold of this task (one per task; capture and release are idempotent by it). */
  hold_key: string | null;
  api_key_id: string | null;
  /** JSON of the tool's parameters. */
  input: string;
  /** JSON array of media asset ids. */
  input_asset_ids: string;
  /** JSON array of {name, kind, format, size, key}. */
  outputs: string;
  project_id: string | null;
  created_at: number;
  started_at: number | null;
  /** When the current stage's run began (migration 025; the time left follows its pace). */
  stage_started_at: number | null;
  finished_at: number | null;
  updated_at: number;
  /** JSON figures of the speech self-check of the job (migration 027), null when the tool has none. */
  self_check: string | null;
}

export interface TaskStagesTable {
  task_id: string;
  name: string;
  seq: number;
  status: 'pending' | 'running' | 'done' | 'failed';
  progress: number;
  attempts: number;
  /** JSON the stage returned; the next stages read it. */
  result: string | null;
  /** JSON array of storage keys the stage wrote. */
  artifacts: string;
  error: string | null;
  started_at: number | null;
  finished_at: number | null;
}

export interface TaskItemsTable {
  task_id: string;
  stage: string;
  item: string;
  result: string;
  created_at: number;
}

export interface TaskEventsTable {
  seq: Generated<number>;
  owner_id: string;
  task_id: string;
  type: string;
  created_at: number;
  /** JSON of the tasks row as of this event (migration 010_tasks); null on rows written before it. */
  task: string | null;
}

export interface MediaAssetsTable {
  id: string;
  owner_id: string;
  name: string;
  kind: 'video' | 'audio' | 'image' | 'subtitle' | 'document';
  mime: string;
  size: number;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  has_audio: number;
  has_video: number;
  /** JSON: the ffprobe summary the limits were checked on. */
  probe: string;
  sha256: string;
  storage_key: string;
  peaks_key: string | null;
  thumbnail_key: string | null;
  status: 'processing' | 'ready' | 'failed';
  created_at: number;
  /** The upload it was completed from (018): a repeated completion answers this asset. */
  upload_ref: Generated<string | null>;
}

export interface ProjectsTable {
  id: string;
  owner_id: string;
  tool: string;
  name: string;
  source_asset_id: string | null;
  task_id: string | null;
  engine_label: string;
  /** JSON of the ProjectDocument (contract). */
  document: string;
  version: number;
  created_at: number;
  updated_at: number;
}

export interface UserFeaturesTable {
  user_id: string;
  feature: string;
  enabled: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  verification_codes: VerificationCodesTable;
  settings: SettingsTable;
  dev_outbox: DevOutboxTable;
  jobs: JobsTable;
  files: FilesTable;
  plans: PlansTable;
  credit_accounts: CreditAccountsTable;
  credit_lots: CreditLotsTable;
  credit_holds: CreditHoldsTable;
  credit_hold_lots: CreditHoldLotsTable;
  credit_ledger: CreditLedgerTable;
  redeem_batches: RedeemBatchesTable;
  redeem_codes: RedeemCodesTable;
  redeem_attempts: RedeemAttemptsTable;
  credit_exports: CreditExportsTable;
  voices: VoicesTable;
  voice_favorites: VoiceFavoritesTable;
  pronunciation_entries: PronunciationEntriesTable;
  tts_history: TtsHistoryTable;
  tts_sentences: TtsSentencesTable;
  products: ProductsTable;
  payment_orders: PaymentOrdersTable;
  payment_attempts: PaymentAttemptsTable;
  sandbox_trades: SandboxTradesTable;
  api_keys: ApiKeysTable;
  api_key_usage: ApiKeyUsageTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  tasks: TasksTable;
  task_stages: TaskStagesTable;
  task_items: TaskItemsTable;
  task_events: TaskEventsTable;
  media_assets: MediaAssetsTable;
  projects: ProjectsTable;
  user_features: UserFeaturesTable;
  voice_clones: VoiceClonesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RefreshToken = Selectable<RefreshTokensTable>;
export type Job = Selectable<JobsTable>;
export type StoredFile = Selectable<FilesTable>;
export type CreditAccount = Selectable<CreditAccountsTable>;
export type CreditLot = Selectable<CreditLotsTable>;
export type CreditHold = Selectable<CreditHoldsTable>;
export type VoiceRow = Selectable<VoicesTable>;
export type TtsHistoryRow = Selectable<TtsHistoryTable>;
export type ProductRow = Selectable<ProductsTable>;
export type PaymentOrder = Selectable<PaymentOrdersTable>;
export type PaymentAttempt = Selectable<PaymentAttemptsTable>;
export type SandboxTrade = Selectable<SandboxTradesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type TaskRow = Selectable<TasksTable>;
export type TaskStageRow = Selectable<TaskStagesTable>;
export type MediaAssetRow = Selectable<MediaAssetsTable>;
export type ProjectRow = Selectable<ProjectsTable>;

/** Cloned voices (012_voice_clones); JSON columns as text. */
export interface VoiceClonesTable {
  id: string;
  owner_id: string;
  name: string;
  kind: 'fast' | 'professional';
  status: 'queued' | 'training' | 'ready' | 'failed';
  language: string;
  engine: string;
  engine_label: string;
  profile: string;
  samples: string;
  reference_clips: string;
  candidates: string;
  chosen: number;
  consent: string;
  check_report: string | null;
  note: string;
  error: string | null;
  trainer_job: string | null;
  created_at: number;
  updated_at: number;
}
export type VoiceCloneRow = Selectable<VoiceClonesTable>;

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

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  verification_codes: VerificationCodesTable;
  settings: SettingsTable;
  dev_outbox: DevOutboxTable;
  jobs: JobsTable;
  files: FilesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RefreshToken = Selectable<RefreshTokensTable>;
export type Job = Selectable<JobsTable>;
export type StoredFile = Selectable<FilesTable>;
// Keep Generated importable for later tables with database defaults.
export type { Generated };

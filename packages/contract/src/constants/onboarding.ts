/** Onboarding, analytics and notification constants (spec §9); zod-free so the web imports them. */

/** The questionnaire reward: a free membership trial of this many days. */
export const TRIAL_DAYS = 3;

/** select_type 2 is multiple choice; anything else single. */
export const SELECT_TYPE_MULTIPLE = 2;

/** Bounds of one analytics report. */
export const ANALYTICS_LIMITS = {
  /** events per report */
  maxEvents: 100,
  /** base64 characters per report (≈ 96 KB of JSON) */
  maxEncodedChars: 131_072,
  /** a report signed longer ago (or further ahead) than this is refused */
  maxSkewMs: 10 * 60_000,
} as const;

/** Analytics event names of spec §7. */
export const AnalyticsEventName = {
  buttonClick: 'h5_button_click',
  pageExposure: 'h5_page_exposure',
  techDownload: 'h5_tech_download',
  heartbeat: 'h5_user_heartbeat_log',
  signUp: 'h5_sign_up',
} as const;

/** Notification service worker version (spec §9). */
export const NOTIFICATION_WORKER_VERSION = '0.0.113';

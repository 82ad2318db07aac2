/**
 * Tables of migration 006 (onboarding, analytics, notifications), added to the database type by
 * module augmentation so this module's tables live next to its code.
 */
export interface QuestionnaireQuestionsTable {
  id: number;
  position: number;
  question_content: string;
  select_type: number;
  /** JSON array of {id, content, icon?} */
  options: string;
  updated_at: number;
}

export interface QuestionnaireResponsesTable {
  user_id: string;
  /** JSON array of {id, answer: [{id}]} as submitted */
  answers: string;
  trial_granted: number;
  created_at: number;
}

export interface AnalyticsEventsTable {
  id: string;
  day: string;
  event: string;
  uid: string;
  device_id: string;
  props: string;
  client_time: number;
  received_at: number;
}

export interface PushSubscriptionsTable {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

declare module '../../db/schema.ts' {
  interface Database {
    questionnaire_questions: QuestionnaireQuestionsTable;
    questionnaire_responses: QuestionnaireResponsesTable;
    analytics_events: AnalyticsEventsTable;
    push_subscriptions: PushSubscriptionsTable;
    app_secrets: AppSecretsTable;
  }
}

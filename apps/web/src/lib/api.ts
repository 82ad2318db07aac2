import type {
  accountsCalls,
  apikeysCalls,
  appCalls,
  audiobookCalls,
  CallBody,
  CallData,
  CallQuery,
  creditsCalls,
  dubbingCalls,
  eraseCalls,
  mediaCalls,
  ocrCalls,
  onboardingCalls,
  paymentsCalls,
  projectsCalls,
  sttCalls,
  tasksCalls,
  ttsCalls,
  videoTranslationCalls,
  voiceChangerCalls,
  voiceCloneCalls,
} from '@vw/contract';
import { type RawEndpoint, rawEndpoint } from './http/client.ts';

/**
 * The contract's calls as the web client uses them: method and path at runtime, body, query and
 * data types taken from the contract. The contract's call objects carry zod schemas that are
 * built when the module loads; mirroring the two strings keeps zod out of the web bundle.
 * `api.test.ts` fails if a method or path drifts from the contract.
 */
// biome-ignore lint/suspicious/noExplicitAny: any CallDef
type Ref<C extends { method: any; path: string }> = RawEndpoint<CallBody<C>, CallQuery<C>, CallData<C>>;
const ref = <C extends { method: RawEndpoint['method']; path: string }>(
  method: C['method'],
  path: string,
): Ref<C> => rawEndpoint(method, path);

type A = typeof accountsCalls;
type P = typeof appCalls;
type K = typeof creditsCalls;
type T = typeof ttsCalls;
type Y = typeof paymentsCalls;
type O = typeof onboardingCalls;
type X = typeof apikeysCalls;
type J = typeof tasksCalls;
type M = typeof mediaCalls;
type R = typeof projectsCalls;
type S = typeof sttCalls;
type D = typeof dubbingCalls;
type OC = typeof ocrCalls;
type ER = typeof eraseCalls;
type V = typeof voiceCloneCalls;
type VC = typeof voiceChangerCalls;
type B = typeof audiobookCalls;
type VT = typeof videoTranslationCalls;

export const api = {
  sendVerificationCode: ref<A['sendVerificationCode']>('POST', '/accounts/v1/send_verification_code'),
  authWithVerificationCode: ref<A['authWithVerificationCode']>(
    'POST',
    '/accounts/v1/auth_with_verification_code',
  ),
  authWithPassword: ref<A['authWithPassword']>('POST', '/accounts/v1/auth_with_password'),
  resetPassword: ref<A['resetPassword']>('POST', '/accounts/v1/reset_pwd'),
  refreshToken: ref<A['refreshToken']>('POST', '/accounts/v1/token'),
  signOut: ref<A['signOut']>('POST', '/accounts/v1/sign_out'),
  cancelAccount: ref<A['cancelAccount']>('POST', '/accounts/v1/cancel_account'),
  getUserInfo: ref<A['getUserInfo']>('POST', '/v1/user/get_user_info'),
  updateProfile: ref<A['updateProfile']>('POST', '/v1/user/update_profile'),
  uploadAvatar: ref<A['uploadAvatar']>('POST', '/v1/user/upload_avatar'),
  bindAccount: ref<A['bindAccount']>('POST', '/v1/user/bind_account'),
  changePassword: ref<A['changePassword']>('POST', '/v1/user/change_password'),
  devOutbox: ref<A['devOutbox']>('GET', '/dev/outbox'),
  getAppConfig: ref<P['getAppConfig']>('GET', '/p1/appconfig/get_app_config'),
  // credits and memberships (issue 4)
  getTenantBonus: ref<K['getTenantBonus']>('GET', '/v1/tenant/get_tenant_bonus'),
  getTenantBalance: ref<K['getTenantBalance']>('GET', '/v1/balance/get_tenant_balance'),
  getEarnDetails: ref<K['getEarnDetails']>('GET', '/v1/balance/credit/earn-details'),
  getConsumeDetails: ref<K['getConsumeDetails']>('GET', '/v1/balance/credit/consume-details'),
  getCreditUsage: ref<K['getCreditUsage']>('POST', '/p1/balance/credit_usage'),
  estimateCredits: ref<K['estimateCredits']>('POST', '/v1/balance/credit/estimate'),
  downloadConsumeDetails: ref<K['downloadConsumeDetails']>(
    'POST',
    '/v1/balance/credit/download-consume-details',
  ),
  exportTaskStatus: ref<K['exportTaskStatus']>('POST', '/v1/balance/credit/export-task-status'),
  useRedeemCode: ref<K['useRedeemCode']>('POST', '/v1/redeem/use'),
  getPlans: ref<K['getPlans']>('GET', '/v1/tenant/get_plans'),
  // voices, text to speech, history (issue 6)
  getAllVoices: ref<T['getAllVoices']>('GET', '/p1/voices/internal_get_all_voices'),
  getDefaultVoice: ref<T['getDefaultVoice']>('GET', '/p1/voices/get_default_voice'),
  getSupportedModel: ref<T['getSupportedModel']>('GET', '/p1/voices/get_supported_model'),
  getLanguageIcon: ref<T['getLanguageIcon']>('GET', '/v1/misc/get_language_icon'),
  favorVoice: ref<T['favorVoice']>('POST', '/p1/voices/favor_voice'),
  ttsGenerate: ref<T['ttsGenerate']>('POST', '/v1/tts/generate'),
  ttsTaskStatus: ref<T['ttsTaskStatus']>('GET', '/v1/tts/task'),
  ttsRegenerateSentence: ref<T['ttsRegenerateSentence']>('POST', '/v1/tts/regenerate_sentence'),
  getHistory: ref<T['getHistory']>('GET', '/p1/history/get'),
  editHistory: ref<T['editHistory']>('POST', '/p1/history/edit'),
  deleteHistory: ref<T['deleteHistory']>('DELETE', '/p1/history/delete'),
  batchDeleteHistory: ref<T['batchDeleteHistory']>('POST', '/p1/history/batch_delete'),
  fileDownloadUrlByName: ref<T['fileDownloadUrlByName']>('POST', '/v1/misc/file_download_urlbyname'),
  listDictionary: ref<T['listDictionary']>('GET', '/v1/tts/dictionary/list'),
  upsertDictionary: ref<T['upsertDictionary']>('POST', '/v1/tts/dictionary/upsert'),
  deleteDictionary: ref<T['deleteDictionary']>('POST', '/v1/tts/dictionary/delete'),
  getReadings: ref<T['getReadings']>('POST', '/v1/tts/readings'),
  // products and payments (issue 5)
  getProducts: ref<Y['getProducts']>('GET', '/v1/app/products'),
  createOrder: ref<Y['createOrder']>('POST', '/v1/pay/create_order'),
  getOrder: ref<Y['getOrder']>('GET', '/v1/pay/get_order'),
  // onboarding, analytics, notifications (onboarding issue)
  getUserPersonaQuestionnaire: ref<O['getUserPersonaQuestionnaire']>(
    'GET',
    '/v1/user/get_user_persona_questionnaire',
  ),
  submitUserPersonaQuestionnaire: ref<O['submitUserPersonaQuestionnaire']>(
    'POST',
    '/v1/user/submit_user_persona_questionnaire',
  ),
  getAnalyticsKey: ref<O['getAnalyticsKey']>('GET', '/v1/analytics/get_key'),
  reportAnalytics: ref<O['reportAnalytics']>('POST', '/v1/analytics/report'),
  getPushPublicKey: ref<O['getPushPublicKey']>('GET', '/v1/notifications/vapid_public_key'),
  subscribePush: ref<O['subscribePush']>('POST', '/v1/notifications/subscribe'),
  unsubscribePush: ref<O['unsubscribePush']>('POST', '/v1/notifications/unsubscribe'),
  // API keys and webhooks (issue 8)
  apiKeyList: ref<X['apiKeyList']>('GET', '/v1/api_keys/list'),
  apiKeyCreate: ref<X['apiKeyCreate']>('POST', '/v1/api_keys/create'),
  apiKeyRename: ref<X['apiKeyRename']>('POST', '/v1/api_keys/rename'),
  apiKeyRevoke: ref<X['apiKeyRevoke']>('POST', '/v1/api_keys/revoke'),
  apiKeyUsage: ref<X['apiKeyUsage']>('GET', '/v1/api_keys/usage'),
  webhookList: ref<X['webhookList']>('GET', '/v1/webhooks/list'),
  webhookCreate: ref<X['webhookCreate']>('POST', '/v1/webhooks/create'),
  webhookDelete: ref<X['webhookDelete']>('POST', '/v1/webhooks/delete'),
  webhookEnable: ref<X['webhookEnable']>('POST', '/v1/webhooks/enable'),
  webhookTest: ref<X['webhookTest']>('POST', '/v1/webhooks/test'),
  webhookDeliveries: ref<X['webhookDeliveries']>('GET', '/v1/webhooks/deliveries'),
  webhookRedeliver: ref<X['webhookRedeliver']>('POST', '/v1/webhooks/redeliver'),
  // tasks, media, editor projects, speech to text (issue 13)
  getTask: ref<J['getTask']>('GET', '/v1/tasks/get'),
  listTasks: ref<J['listTasks']>('GET', '/v1/tasks/list'),
  cancelTask: ref<J['cancelTask']>('POST', '/v1/tasks/cancel'),
  retryTask: ref<J['retryTask']>('POST', '/v1/tasks/retry'),
  resumeTask: ref<J['resumeTask']>('POST', '/v1/tasks/resume'),
  deleteTask: ref<J['deleteTask']>('DELETE', '/v1/tasks/delete'),
  generateUploadCredentials: ref<M['generateUploadCredentials']>(
    'POST',
    '/v1/misc/generate_obs_temporary_credentials',
  ),
  completeUpload: ref<M['completeUpload']>('POST', '/v1/media/complete_upload'),
  getMediaAsset: ref<M['getMediaAsset']>('GET', '/v1/media/get'),
  listMediaAssets: ref<M['listMediaAssets']>('GET', '/v1/media/list'),
  deleteMediaAsset: ref<M['deleteMediaAsset']>('DELETE', '/v1/media/delete'),
  getMediaPeaks: ref<M['getMediaPeaks']>('GET', '/v1/media/peaks'),
  getToolCapabilities: ref<M['getToolCapabilities']>('GET', '/v1/tools/capabilities'),
  listProjects: ref<R['listProjects']>('GET', '/v1/projects/list'),
  getProject: ref<R['getProject']>('GET', '/v1/projects/get'),
  saveProject: ref<R['saveProject']>('POST', '/v1/projects/save'),
  renameProject: ref<R['renameProject']>('POST', '/v1/projects/rename'),
  deleteProject: ref<R['deleteProject']>('DELETE', '/v1/projects/delete'),
  exportProject: ref<R['exportProject']>('POST', '/v1/projects/export'),
  sttCreate: ref<S['sttCreate']>('POST', '/v1/stt/create'),
  // dubbing: SRT配音, AI配音, 视频合成 and the editor's line actions (issue 17)
  srtDubbingCreate: ref<D['srtDubbingCreate']>('POST', '/v1/dubbing/srt/create'),
  dubbingCreate: ref<D['dubbingCreate']>('POST', '/v1/dubbing/create'),
  videoSynthesisCreate: ref<D['videoSynthesisCreate']>('POST', '/v1/synthesis/create'),
  dubbingRegenerate: ref<D['dubbingRegenerate']>('POST', '/v1/dubbing/regenerate'),
  dubbingPickTake: ref<D['dubbingPickTake']>('POST', '/v1/dubbing/pick-take'),
  dubbingLock: ref<D['dubbingLock']>('POST', '/v1/dubbing/lock'),
  dubbingMedia: ref<D['dubbingMedia']>('GET', '/v1/dubbing/media'),
  ocrCreate: ref<OC['ocrCreate']>('POST', '/v1/ocr/create'),
  ocrDetectRegions: ref<OC['ocrDetectRegions']>('POST', '/v1/ocr/detect-regions'),
  ocrPreviewFrame: ref<OC['ocrPreviewFrame']>('POST', '/v1/ocr/preview-frame'),
  eraseCreate: ref<ER['eraseCreate']>('POST', '/v1/erase/create'),
  watermarkRemoveCreate: ref<ER['watermarkRemoveCreate']>('POST', '/v1/watermark/create'),
  erasePreview: ref<ER['erasePreview']>('POST', '/v1/erase/preview'),
  getEraseResult: ref<ER['getEraseResult']>('GET', '/v1/erase/result'),
  eraseDifference: ref<ER['eraseDifference']>('POST', '/v1/erase/difference'),
  // voice changer (issue 16)
  voiceChangerCreate: ref<VC['voiceChangerCreate']>('POST', '/v1/voice-changer/create'),
  voiceChangerTargets: ref<VC['voiceChangerTargets']>('GET', '/v1/voice-changer/targets'),
  voiceChangerResult: ref<VC['voiceChangerResult']>('GET', '/v1/voice-changer/result'),
  // voice cloning (issue 16)
  voiceCloneOverview: ref<V['voiceCloneOverview']>('GET', '/v1/voice-clone/overview'),
  voiceCloneList: ref<V['voiceCloneList']>('GET', '/v1/voice-clone/list'),
  voiceCloneCheck: ref<V['voiceCloneCheck']>('POST', '/v1/voice-clone/check'),
  voiceCloneFix: ref<V['voiceCloneFix']>('POST', '/v1/voice-clone/fix'),
  voiceCloneConsentSentence: ref<V['voiceCloneConsentSentence']>('GET', '/v1/voice-clone/consent-sentence'),
  voiceCloneCreate: ref<V['voiceCloneCreate']>('POST', '/v1/voice-clone/create'),
  voiceClonePreview: ref<V['voiceClonePreview']>('POST', '/v1/voice-clone/preview'),
  voiceCloneChoose: ref<V['voiceCloneChoose']>('POST', '/v1/voice-clone/choose'),
  voiceCloneRename: ref<V['voiceCloneRename']>('POST', '/v1/voice-clone/rename'),
  voiceCloneDelete: ref<V['voiceCloneDelete']>('POST', '/v1/voice-clone/delete'),
  voiceCloneRecheck: ref<V['voiceCloneRecheck']>('POST', '/v1/voice-clone/recheck'),
  voiceCloneProfessionalCreate: ref<V['voiceCloneProfessionalCreate']>(
    'POST',
    '/v1/voice-clone/professional/create',
  ),
  // audiobooks (issue 19)
  audiobookImport: ref<B['audiobookImport']>('POST', '/v1/audiobook/import'),
  audiobookList: ref<B['audiobookList']>('GET', '/v1/audiobook/list'),
  audiobookGet: ref<B['audiobookGet']>('GET', '/v1/audiobook/get'),
  audiobookParagraphs: ref<B['audiobookParagraphs']>('GET', '/v1/audiobook/paragraphs'),
  audiobookDelete: ref<B['audiobookDelete']>('POST', '/v1/audiobook/delete'),
  audiobookUpdate: ref<B['audiobookUpdate']>('POST', '/v1/audiobook/update'),
  audiobookChapterEdit: ref<B['audiobookChapterEdit']>('POST', '/v1/audiobook/chapter_edit'),
  audiobookParagraphEdit: ref<B['audiobookParagraphEdit']>('POST', '/v1/audiobook/paragraph_edit'),
  audiobookCast: ref<B['audiobookCast']>('POST', '/v1/audiobook/cast'),
  audiobookSynthesize: ref<B['audiobookSynthesize']>('POST', '/v1/audiobook/synthesize'),
  audiobookExport: ref<B['audiobookExport']>('POST', '/v1/audiobook/export'),
  audiobookExportReport: ref<B['audiobookExportReport']>('GET', '/v1/audiobook/export_report'),
  audiobookPronunciationChanged: ref<B['audiobookPronunciationChanged']>(
    'POST',
    '/v1/audiobook/pronunciation',
  ),
  // video translation (issue 18)
  videoTranslationLanguages: ref<VT['videoTranslationLanguages']>('GET', '/v1/video-translation/languages'),
  videoTranslationEstimate: ref<VT['videoTranslationEstimate']>('POST', '/v1/video-translation/estimate'),
  videoTranslationCreate: ref<VT['videoTranslationCreate']>('POST', '/v1/video-translation/create'),
  videoTranslationRetranslate: ref<VT['videoTranslationRetranslate']>(
    'POST',
    '/v1/video-translation/retranslate',
  ),
  videoTranslationBackTranslate: ref<VT['videoTranslationBackTranslate']>(
    'POST',
    '/v1/video-translation/back-translate',
  ),
  videoTranslationRedub: ref<VT['videoTranslationRedub']>('POST', '/v1/video-translation/redub'),
  videoTranslationContinue: ref<VT['videoTranslationContinue']>('POST', '/v1/video-translation/continue'),
  videoTranslationExport: ref<VT['videoTranslationExport']>('POST', '/v1/video-translation/export'),
  translationPreferencesGet: ref<VT['translationPreferencesGet']>('GET', '/v1/video-translation/preferences'),
  translationPreferencesSave: ref<VT['translationPreferencesSave']>(
    'POST',
    '/v1/video-translation/preferences',
  ),
  glossaryGet: ref<VT['glossaryGet']>('GET', '/v1/video-translation/glossary'),
  glossarySave: ref<VT['glossarySave']>('POST', '/v1/video-translation/glossary'),
  speakerVoicesGet: ref<VT['speakerVoicesGet']>('GET', '/v1/video-translation/speaker-voices'),
};

/** User type 1 is refused (spec §6); mirrors the contract's UserType. */
export const USER_TYPE_REFUSED = 1;
/** Mirrors of the contract's account patterns (checked by api.test.ts). */
export const PHONE_RE = /^(?:\+?86)?1[3-9]\d{9}$/;
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export {
  type ChatClient,
  type ChatClientOptions,
  condenseWith,
  createChatClient,
  parseCondensed,
  parseJsonObject,
  spokenLength,
} from './chat.ts';
export {
  type RefineResult,
  refineSpeakers,
  SPEAKER_PROMPT_MARK,
  validateSpeakerAnswer,
} from './speakers.ts';

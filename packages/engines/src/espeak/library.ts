import koffi from 'koffi';
import { EngineError } from '../errors.ts';

/** A synthesis event of espeak-ng; positions are 1-based characters (code points) of the input. */
export interface EspeakEvent {
  type: 'word' | 'sentence' | 'end';
  position: number;
  length: number;
  audioMs: number;
}

export interface EspeakOutput {
  samples: Int16Array;
  sampleRate: number;
  events: EspeakEvent[];
}

export interface EspeakParams {
  /** e.g. 'cmn-latn-pinyin+f2' */
  voiceName: string;
  rate: number;
  pitch: number;
  range: number;
}

export interface EspeakLibrary {
  readonly sampleRate: number;
  readonly version: string;
  /** Synthesises SSML synchronously; espeak-ng keeps global state, so calls never overlap in one thread. */
  synth(ssml: string, params: EspeakParams): EspeakOutput;
}

// espeak_AUDIO_OUTPUT / flags / parameters / event types from speak_lib.h.
const AUDIO_OUTPUT_SYNCHRONOUS = 2;
const INITIALIZE_DONT_EXIT = 0x8000;
const POS_CHARACTER = 1;
const CHARS_UTF8 = 1;
const SSML = 0x10;
const PARAM = { rate: 1, pitch: 3, range: 4 } as const;
const EVENT_NAMES: Record<number, EspeakEvent['type']> = { 1: 'word', 2: 'sentence', 5: 'end' };
const LIST_TERMINATED = 0;

// Types are process-wide in koffi, so they are declared once, whatever library gets loaded.
const Event = koffi.struct('espeak_EVENT', {
  type: 'int',
  unique_identifier: 'uint',
  text_position: 'int',
  length: 'int',
  audio_position: 'int',
  sample: 'int',
  user_data: 'void *',
  id: koffi.union('espeak_EVENT_id', { number: 'int', name: 'const char *', string: koffi.array('char', 8) }),
});
const EVENT_SIZE = koffi.sizeof(Event);
const SynthCallback = koffi.proto(
  'int espeak_SynthCallback(short *wav, int numsamples, espeak_EVENT *events)',
);

const loaded = new Map<string, EspeakLibrary>();

export function espeakMissing(cause?: unknown): EngineError {
  return new EngineError(
    'engine_unavailable',
    '标准引擎暂不可用，请联系管理员',
    'espeak engine unavailable: install espeak-ng (apt-get install espeak-ng libespeak-ng1)',
    { cause },
  );
}

/** Loads libespeak-ng once per process through koffi (the library is a process-wide singleton anyway). */
export function loadEspeak(libraryPath = 'libespeak-ng.so.1'): EspeakLibrary {
  const hit = loaded.get(libraryPath);
  if (hit) return hit;
  let lib: ReturnType<typeof koffi.load>;
  try {
    lib = koffi.load(libraryPath);
  } catch (err) {
    throw espeakMissing(err);
  }
  const initialize = lib.func(
    'int espeak_Initialize(int output, int buflength, const char *path, int options)',
  );
  const info = lib.func('const char *espeak_Info(const char **path)');
  const setSynthCallback = lib.func('void espeak_SetSynthCallback(espeak_SynthCallback *cb)');
  const setVoiceByName = lib.func('int espeak_SetVoiceByName(const char *name)');
  const setParameter = lib.func('int espeak_SetParameter(int parameter, int value, int relative)');
  const synth = lib.func(
    'int espeak_Synth(const void *text, size_t size, uint position, int position_type, uint end_position, uint flags, uint *uid, void *user_data)',
  );

  const sampleRate = initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, null, INITIALIZE_DONT_EXIT) as number;
  if (sampleRate <= 0) throw espeakMissing(new Error(`espeak_Initialize returned ${sampleRate}`));

  // The callback runs inside espeak_Synth on this thread, so a plain "current call" collector is safe.
  let chunks: Int16Array[] = [];
  let events: EspeakEvent[] = [];
  const callback = koffi.register((wav: unknown, count: number, list: unknown) => {
    if (count > 0 && wav) chunks.push(new Int16Array(koffi.view(wav, count * 2).slice(0)));
    for (let i = 0; ; i++) {
      const e = koffi.decode(list, i * EVENT_SIZE, Event) as {
        type: number;
        text_position: number;
        length: number;
        audio_position: number;
      };
      if (e.type === LIST_TERMINATED) break;
      const type = EVENT_NAMES[e.type];
      if (type) events.push({ type, position: e.text_position, length: e.length, audioMs: e.audio_position });
    }
    return 0;
  }, koffi.pointer(SynthCallback));
  setSynthCallback(callback);

  const library: EspeakLibrary = {
    sampleRate,
    version: info(null) as string,
    synth(ssml, params) {
      if (setVoiceByName(params.voiceName) !== 0) {
        throw new EngineError(
          'invalid_request',
          `标准引擎没有音色 ${params.voiceName}`,
          `espeak-ng has no voice ${params.voiceName}`,
        );
      }
      setParameter(PARAM.rate, params.rate, 0);
      setParameter(PARAM.pitch, params.pitch, 0);
      setParameter(PARAM.range, params.range, 0);
      chunks = [];
      events = [];
      const text = Buffer.from(`${ssml}\0`, 'utf8');
      const status = synth(text, text.length, 0, POS_CHARACTER, 0, CHARS_UTF8 | SSML, null, null) as number;
      if (status !== 0) {
        throw new EngineError(
          'media_failed',
          `标准引擎合成失败（${status}）`,
          `espeak_Synth failed with ${status}`,
        );
      }
      const samples = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        samples.set(c, at);
        at += c.length;
      }
      return { samples, sampleRate, events };
    },
  };
  loaded.set(libraryPath, library);
  return library;
}

/*
 * Speaker labels in subtitle lines, as subtitle files really write them: `张三：台词` (a whole short
 * name before the colon), `[张三] 台词` / `【张三】台词`, and `- ` dialogue dashes (one line per
 * speaker). A clause of the sentence (她说：… / 他笑着说：… / 一位乘客告诉我们：…) is never a name:
 * when unsure the text is kept as it is. The web (casting preview) and the server (import) share it.
 */

/** Words that make a prefix part of the sentence: speech verbs (他笑着说, 记者问, 告诉我们…). */
const CLAUSE_WORDS =
  /说|道|问|答|讲|喊|叫|笑|称|哭|骂|叹|吼|嚷|念|唱|告诉|表示|认为|觉得|以为|想|写|提到|透露|强调|宣布|指出|补充|介绍|解释|回应|声明|报道|是|有|在|了|着|过/u;
/** Starts of a subject phrase rather than a name: pronouns, determiners, numbers (一位乘客, 这个人, 大家). */
const CLAUSE_STARTS = /^(?:[我你您他她它咱俺这那哪某各每其该此一二两三几多有]|大家|别人|人们)/u;
/** Labels that head a sentence rather than name a speaker (注意：… / 第一：…), and plural addresses (同学们：…). */
const LABELS =
  /^(?:注意|提示|备注|注|时间|地点|日期|地址|电话|网址|来源|标题|主题|题目|字幕|翻译|原文|译文|总之|其实|结果|原因|目的|比如|例如|包括|首先|其次|然后|最后|另外|总结|重点|第.+|.+们)$/u;
/** Sounds and descriptions in brackets ([音乐], [掌声], [Music]) are not speakers. */
const SOUNDS =
  /^(?:.*[声音乐响]|音效|鼓掌|欢呼|叹气|咳嗽|沉默|静默|画外|字幕|music|applause|laughter|laughs|laughing|sighs|silence|inaudible|cheering|cheers|crowd|noise|sound|singing|gasps|chuckles)$/iu;
const LATIN_NAME = /^[A-Z][\w'’.-]*(?:\s[A-Z0-9][\w'’.-]*){0,2}$/u;
const LATIN_WORDS =
  /^(?:he|she|they|it|i|we|you|this|that|there|note|notes|warning|question|answer|tip|step|example|update|chapter|part|time|date|source|ps|p\.s\.|q|a|re|fw|http|https)$/iu;

/** Whether a prefix is a speaker's name: a short whole name, never a clause or a label. */
export function isSpeakerName(raw: string): boolean {
  const name = raw.trim();
  if (name === '' || name.length > 24) return false;
  // A Chinese name: 1–5 Han characters (a role may carry a letter or number: 嘉宾A, 男1), or a
  // transliterated name with middle dots (迈克尔·杰克逊).
  if (
    /^\p{Script=Han}{1,5}[A-Za-z0-9]{0,2}$/u.test(name) ||
    /^\p{Script=Han}{1,8}(?:[·•]\p{Script=Han}{1,8}){1,3}$/u.test(name)
  ) {
    const han = name.replace(/[A-Za-z0-9·•]/g, '');
    return !CLAUSE_WORDS.test(han) && !CLAUSE_STARTS.test(han) && !LABELS.test(han);
  }
  // A Latin name: capitalised words (Alice, Dr. Smith, SPEAKER_01, Speaker 2), none a pronoun or label.
  if (LATIN_NAME.test(name)) {
    const words = name.split(/\s+/);
    return !words.some((w) => LATIN_WORDS.test(w)) && !/^\d+$/.test(name);
  }
  return false;
}

/** The line's leading speaker label (`名字：` or `[名字]`) and the text after it, or null to keep the line whole. */
export function speakerPrefix(line: string): { speaker: string; text: string } | null {
  const colon = /^([^:：\n]{1,24}?)\s*[:：]\s*(\S[\s\S]*)$/u.exec(line.trim());
  if (colon && isSpeakerName(colon[1]!)) return { speaker: colon[1]!.trim(), text: colon[2]!.trim() };
  const bracket = /^[[【]\s*([^\]】\n]{1,24}?)\s*[\]】]\s*(\S[\s\S]*)$/u.exec(line.trim());
  if (bracket && !SOUNDS.test(bracket[1]!.trim()) && isSpeakerName(bracket[1]!))
    return { speaker: bracket[1]!.trim(), text: bracket[2]!.trim() };
  return null;
}

/** A dialogue dash at the start of a line (`- 你好` / `-你好`), not a minus sign or a long dash. */
const DIALOGUE_DASH = /^-(?:\s+|(?=\p{Script=Han}))(?=\S)/u;

/** The lines of a cue without their dialogue dashes (the dash marks a change of speaker, it is not spoken). */
export function withoutDialogueDashes(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim().replace(DIALOGUE_DASH, ''))
    .join('\n');
}

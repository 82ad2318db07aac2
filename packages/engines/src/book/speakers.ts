import { segmenter } from '../text/jieba.ts';
import { castRoles, looksLikePerson, occurrences } from './cast.ts';
import type { AttributedText, BookCharacter, Gender, SpeechSegment } from './types.ts';

/**
 * Dialogue and who says it. Quotes are “…”, 「…」 (『…』 inside them stays part of the quote) and
 * straight "…" pairs; a short quote without sentence punctuation that no speech verb introduces (a term,
 * a nickname, an inscription: 叫他“囚徒”) is not speech and stays in the narration.
 *
 * Names are learnt from the whole text first (`learnNames`): clause subjects next to quotes, never
 * verbs, adverbs, places or clause fragments. The speaker comes from the narration next to the quote:
 * 张三笑着说：“…” / “…”李四问道。 / “…”阿Q站起来 (an action of a named character right after it). A
 * pronoun (他/她/伊) or a missing subject (…，又说道：“…”) stands for the nearest suitable character
 * before it in the paragraph, else in the narration before. A description (一个喝酒的人说道) is the
 * character whose name ends with it (那秀才 → 赵秀才), else a minor role of its own; crowds (有人, 众人,
 * 他们) stay unnamed. A paragraph ending with …说： announces the next quote's speaker, and bare quotes
 * in an exchange go to the one spoken to, else to the other party.
 */

const QUOTE = /“([^”]*)”|「([^」]*)」|"([^"]*)"/gu;
const VERBS =
  '分付道|吩咐道|分付|吩咐|喝令|答应|心里想|心下想道|暗想|寻思道|想道|想|笑道|笑着说|冷笑道|怒道|喝道|叹道|骂道|哭道|问道|答道|回答道|喊道|叫道|嚷道|低声道|轻声道|说道|大喊|大叫|追问|反问|回言|回报|说|道|曰|问|喊|叫|嚷|答|叹|骂|笑|唱';
/** A thought put as narration, up to the sentence's end: 心里计算：…。 */
const THOUGHT = /(?:心里计算|心里想|心下想|心想|暗想|计算)[：:][^。！？!?]*/gu;
const VERB_AT_END = new RegExp(
  `(?:(?:${VERBS})[了着]?|(?:说|道|叫|喊|嚷|骂|答应)了?一[句声])[：:，,]?\\s*$`,
  'u',
);
/** A speech verb with its listener: [subject]问他： / 对他说： / 向黛玉道： / 与王进说道： / 便教那后生：. */
const TO_LISTENER =
  /(?:问|告诉|嘱咐|吩咐|骂|对着|对|向|朝|冲|跟|与|和|指着|教|谓)([\p{Script=Han}A-Za-zＡ-Ｚａ-ｚ]{1,4}?|[\p{Script=Han}]{1,3}、[\p{Script=Han}]{1,3})(?:的鼻子|的鼻尖)?(?:说道|说|道|嚷道|笑道)?[：:，,]?\s*$/u;
/** The clause right after a quote, up to its speech verb or its first stop: “…”李四问道 / “…”阿Q站起来. */
const AFTER_CLAUSE = /^\s*[，,]?\s*([^，,。！？!?；;：:“”「」"\s]{1,16})/u;
const AFTER_VERB = new RegExp(`^(.{1,12}?)(?:${VERBS})`, 'u');
/** Words that are never a speaker's name. */
const SPEECHY =
  /[说道曰问答叫喊嚷骂笑哭叹想看听见望走跑坐站拿把被将对向跟和与从就便也都又还却只不没很是在了着过的地得么呢吗罢吧啊呀声上下后前来去起出进用取心因忙仍旧知觉给]/u;
/**
 * A given name may be a word that SPEECHY refuses (王进, 张上): after a surname, a character that is
 * neither a speech verb nor a particle is a name's when the two recur (see `nameLike`).
 */
const GIVEN_AFTER_SURNAME = /^[^何于任万][进来起出心因知觉见望坐站将从]$/u;
/** Adverbs and place words that start clauses and recur, never names. */
const NOT_NAME =
  /^(?:自己|许多|虽然|远远|外面|里面|后来|仍旧|已经|忽然|于是|所以|然而|因为|如果|还是|只是|但是|可是|不过|大约|似乎|仿佛|终于|立刻|这回|此后|今天|明天|昨天|现在|从此|当时|一面|一边|或者|谁知|应该|身上|果然|原来|眼睛|眼光|眼圈|眼泪|脸上|脸色|嘴里|嘴唇|手里|头上|心里|心中|耳朵|身子|声音|假使|倘若|倘使|要是|彼此|方才|方要|正要|刚要|彼时|此时|那时|这时|其时|届时|晚上|早上|早晨|夜里|上午|下午|中午|(.)\1)/u;
/** Common surnames (a name said only once must start with one, or with 阿/小/老, or end with a title). */
const SURNAME =
  /^[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤邢鲁柳车荀满糜庞甘祁冠管纪诸柴鲍]/u;
/** Time words and conjunctions start clauses, not names (当墨子走得临近时, 半日, 自言自语). */
const NOT_START = /^[一两几半有没不非是个独间偶当时倘即好傍越里人自竭争此其每各某等教待怕]/u;
/** A name said only once does not start with a number either (三四人, 二十多岁的人); 七斤 recurs. */
const NUMBER_START = /^[二三四五六七八九十百千]/u;
/** Titles that make a recurring word a name by themselves: 柳妈, 四婶, 祥林嫂, 曹公子, 周瑞家的. */
const TITLED = /^[\p{Script=Han}]{1,3}?(?:嫂|婶|叔|妈|姥姥|奶奶|爷|少爷|公子|先生|老太|家的)$/u;
// Connectives before the subject: 于是张三 → 张三, 尽管润叶 → 润叶.
const LEAD =
  /^(?:(?:终于|原来|果然|仍然|仍旧|依然)是|不提防|冷不防|殊不知|想不到|不料|谁知|却说|且说|话说|再说|但是|可是|不过|尽管|虽然|即使|即便|哪怕|假如|如果|倘若|不管|无论|而且|并且|况且|甚至|彼时|其时|(?:这里|那里|后面|旁边|一旁)(?![的有是])|可巧|恰巧|正巧|偏巧|刚巧|恰好|正值|恰值|适值|正遇|忽见|忽听|(?:慌|唬|吓|喜|急|惊|气|羞|打)[得的](?:个|那)?|于是|然后|接着|所以|这时候|这时|那时|此时|当下|随即|忽然|忽而|突然|只见|只听|听见|又见|见|且|兼|并|无奈|因为|因此|不免|然而|仍旧|一时|幸而|幸亏|果然|原来|终于|内中|其中|便|又|也|就|却|才|但|而|因|遂|乃|这|那)+/u;
// What may follow the subject before the verb: 张三[笑着/冷冷地/对妈妈/点点头]说. Cut at the first.
const MARKERS =
  '一边 一面 对着 对 向 跟 朝 冲 和 把 听了 听 看了 看着 看 望着 见 点点头 点头 摇摇头 摇头 抬起 抬头 低下 低头 回头 回身 转身 站起 站 走 坐 想了想 叹了 叹 皱 沉 怒 喝 笑着 笑 冷 淡淡 轻轻 低声 轻声 大声 小声 高声 从 连忙 急忙 赶紧 赶忙 慌忙 立刻 马上 忙 又 也 就 便 却 才 还 都 心里 心中 心下 微微 不禁 忍不住 十分 非常 很 正 在 早 已 仍 只 因 来 地 着 了 满脸 施礼 躬身 拱手 起身 上前 向前 大怒 忽然 忽而 突然 登时 顿时 同时 上来 进来 过来 出来 走来 跑来 赶来 迎上 一'.split(
    ' ',
  );
/** Unnamed voices: a crowd or somebody the text does not name. */
const CROWD =
  /^(?:有人|有的|所有|众人|大家|人们|他们|她们|伊们|你们|我们|咱们|旁人|别人|人家|众|诸人|村人|看客|闲人|大众|人群|些人|满屋子|满屋|满堂)(?![中里之])/u;
/** A group counted as one subject: 母子二人, 两个, 众多牙将. */
const GROUP =
  /^(?:[\p{Script=Han}]{0,4}?[二两三四五六七八九十几]+(?:人|个)(?![\p{Script=Han}]*[的之])|众多)/u;
/** Nouns that make a description a person: 老人, 喝酒的人, 丫鬟… (the last one wins: 那个小丫头). */
const PERSON =
  /(?:舅母|老头子|老太太|老婆子|老妇人|老爷|太太|奶奶|小姐|姑娘|丫鬟|丫头|小厮|婆子|媳妇|嬷嬷|老人|老头|老汉|妇人|女人|男人|汉子|孩子|少年|姑娘|尼姑|和尚|道士|秀才|掌柜|伙计|店主|店家|老板|门丁|门房|车夫|船夫|轿夫|店员|职员|邮差|司机|机器手|工人|女工|巡警|警察|医生|大夫|仆人|听差|厨子|差役|衙役|乞丐|短工|长工|大汉|客人|学生|士兵|先生|母亲|父亲|夫人|大人|后生|庄客|公人|差人|探子|军士|小校|使者|军汉|牙将|牌头|儿子|女儿|老者|老太婆|老妈子|小伙子|大兵|知县|知府|县令|县官|太守|丞相|官|兵|娘|母|妈|爹|人)$/u;
const DETERMINER = /^有?(?:那|这|一|两|几)?(?:个|位|名|群|些|班)?/u;
const PRONOUNS: Record<string, Gender> = { 他: 'male', 她: 'female', 伊: 'female' };

const MALE_TITLES =
  /(先生|公子|少爷|老爷|大爷|大哥|哥哥|哥|弟弟|弟|叔|伯|爷爷|爷|父亲|父|爸爸|爸|兄|王爷|师兄|师弟|大人|和尚|老头|男孩|少年|皇帝|国王|王子|老汉|书生|秀才|举人|掌柜)$/u;
const FEMALE_TITLES =
  /(小姐|夫人|太太|女士|姑娘|姐姐|姐|妹妹|妹|娘子|娘|婆婆|婆子|婆|嫂子|嫂|婶婶|婶子|婶|姑姑|姑|姨|寡妇|妇人|女工|妈妈|妈|母亲|母|奶奶|师姐|师妹|公主|皇后|王后|丫头|丫鬟|女孩|少女|老太|尼姑|媳妇|女人)$/u;
const FEMALE_CHARS = new Set([
  ...'娟婷丽芳娜静敏燕艳霞玲雪梅琳莉兰凤萍红月蓉媛瑶璐琪倩颖妍嫣薇婉娇姗妮娥嫦莺燕蕾菲娅晶芸秀珍翠英黛钗妞芬莲菊',
]);
const MALE_CHARS = new Set([...'强刚伟军勇杰峰斌涛辉龙虎雄鹏彪豪武磊浩坤健栋宏飞鑫毅威超亮庆松柏']);

interface Quote {
  start: number;
  end: number;
  text: string;
  /** False for a term or an inscription in quote marks: it stays narration. */
  speech: boolean;
}

const stripQuotes = (s: string) => s.replace(QUOTE, '');
/** Quotes replaced by a full stop, so the sentence before a quote ends where the last quote did. */
const quotesAsStops = (s: string) => s.replace(QUOTE, '。');
const NAME_CHARS = /^[\p{Script=Han}A-Za-zＡ-Ｚａ-ｚ]+$/u;
const startsWithVerb = new RegExp(`^(?:${VERBS})`, 'u');
const isVerb = new RegExp(`^(?:${VERBS})$`, 'u');

function findQuotes(p: string): Quote[] {
  const out: Quote[] = [];
  for (const m of p.matchAll(QUOTE)) {
    const start = m.index ?? 0;
    const text = m[1] ?? m[2] ?? m[3] ?? '';
    const before = p.slice(0, start);
    // 城里人却叫“条凳”: a word after 叫 (to call a thing so) with no punctuation of its own is a term.
    const naming = /[^大喊]叫\s*$|称(?:为|作|做)?\s*$|叫[做作]\s*$|唤作\s*$/u.test(before);
    const introduced =
      (VERB_AT_END.test(before) && !(naming && text.length <= 6)) ||
      /[：:]\s*$/u.test(before) ||
      !before.trim();
    // A line broken by narration (“唉，”他不觉叹息) ends on a comma, which a term never does.
    const sentence = /[。！？!?…—～~]/u.test(text) || /[，,]$/u.test(text) || text.length > 12;
    out.push({ start, end: start + m[0].length, text, speech: introduced || sentence });
  }
  return out;
}

/** Clauses that say how, not who: 嘴里喊一声, 一面说, 满口儿道. */
const SUBJECTLESS = /^\s*(?:嘴里|口里|嘴上|满口|满嘴|心里|手里|一面|一边|随即|接着|便|就|又|也|才|却|只|$)/u;
/** Of those, the ones that name a part or a manner of speaking, never a subject. */
const MANNER = /^(?:嘴里|口里|嘴上|满口|满嘴|手里|一面|一边)/u;
/** The last clause before a speech verb that may hold its subject (冉有把鞭子一挥，嘴里喊一声: the first). */
function lastWithSubject(parts: string[]): number {
  let i = parts.length - 1;
  while (i > 0 && SUBJECTLESS.test(parts[i])) i--;
  return i;
}

/** A clause's words and their parts of speech (no HMM guessing: an unknown name stays single characters). */
const wordCache = new Map<string, Array<{ word: string; tag: string }>>();
function wordsOf(text: string): Array<{ word: string; tag: string }> {
  let words = wordCache.get(text);
  if (!words) {
    words = segmenter().tag(text, false);
    if (wordCache.size > 20000) wordCache.clear();
    wordCache.set(text, words);
  }
  return words;
}

/**
 * Whether the first `len` characters of a clause cannot be a name by its words: they end inside a word
 * (开玩 of 开玩笑, 尽管润叶马 of 马上), are one adverb, conjunction or preposition (干脆, 索性, 反而) or
 * one verb of two characters (开始, 恳求).
 */
function notNameByWords(clause: string, len: number): boolean {
  let at = 0;
  const words = wordsOf(clause);
  for (const { word, tag } of words) {
    at += word.length;
    if (at === len) break;
    // (A person's name jieba knows, 金俊武, may be cut: 金俊 is the family's generation.)
    if (at > len) return !tag.startsWith('nr');
  }
  const [first] = words;
  if (!first) return false;
  // …nor start with a conjunction or an adverb of two characters or more (尽管润叶 of 尽管润叶马上知道).
  if (first.word.length >= 2 && first.word.length <= len && /^(?:d|c|ad)$/u.test(first.tag)) return true;
  return (
    first.word.length === len && (/^(?:p|vd|u[a-z]*)$/u.test(first.tag) || (len === 2 && first.tag === 'v'))
  );
}

/**
 * Names learnt from the text: the longest start of a narration clause (two to four characters, no verb
 * or particle in it) that recurs in the text and is followed there by nothing, an adverbial or a verb
 * (孔乙己低声说道 is evidence, 孔乙己睁大眼睛 is not). Evidence next to a quote counts once, elsewhere
 * it takes two, and a name must have been seen next to a quote; said only once, right before its verb,
 * it must look like a name (a surname, 阿/小/老, a title: 林黛玉听了，冷笑道 / 七斤嫂…问他说).
 */
export function learnNames(paragraphs: string[], narrated?: Set<string>): Set<string> {
  const text = paragraphs.map(stripQuotes).join('\n');
  // Where each pair of characters occurs, so counting a longer string only looks there (a whole novel
  // has hundreds of thousands of characters and thousands of candidates).
  const pairs = new Map<string, number[]>();
  for (let i = 0; i + 1 < text.length; i++) {
    const key = text.slice(i, i + 2);
    const at = pairs.get(key);
    if (at) at.push(i);
    else pairs.set(key, [i]);
  }
  const counts = new Map<string, number>();
  const count = (s: string) => {
    let n = counts.get(s);
    if (n === undefined) {
      const at = pairs.get(s.slice(0, 2)) ?? [];
      if (s.length === 1) n = occurrences(text, s);
      else n = s.length === 2 ? at.length : at.filter((i) => text.startsWith(s, i)).length;
      counts.set(s, n);
    }
    return n;
  };
  /** SPEECHY, except for a recurring surname and given name (王进) as GIVEN_AFTER_SURNAME allows. */
  // …and a recurring three-character one whose middle alone is (白问山), unless the two make a verb (李问道).
  const speechy = (p: string) =>
    SPEECHY.test(p) &&
    !(p.length === 2 && SURNAME.test(p) && GIVEN_AFTER_SURNAME.test(p) && count(p) >= 3) &&
    !(
      p.length === 3 &&
      SURNAME.test(p) &&
      !SPEECHY.test(p[0] + p[2]) &&
      !isVerb.test(p.slice(1)) &&
      !/[他她伊我你您]/u.test(p[2]) &&
      count(p) >= 3
    );
  /** Starts seen right before a speech verb (益堂说): people, even when they end like a place. */
  const spoke = new Set<string>();
  const evidence = new Map<string, number>();
  /** Starts seen next to a quote at least once: narration alone does not make a speaker's name. */
  const nearQuote = new Set<string>();
  /** `weight` 2 next to a quote, 1 elsewhere; `once` for the clause right before a speech verb. */
  const consider = (clause: string, weight: number, once = false) => {
    const c = clause.trim().replace(LEAD, '');
    if (!c || CROWD.test(c) || GROUP.test(c) || PRONOUNS[c[0]] || c[0] === '我' || c[0] === '你') return;
    if (MANNER.test(c)) return; // 满口儿道: how, not who
    const titled = /^[\p{Script=Han}]{1,3}家的(?![大小二三老儿女人孩媳丫])/u.exec(c)?.[0]; // 周瑞家的道, not 毛家的大儿子
    if (titled && count(titled) >= 2) {
      evidence.set(titled, (evidence.get(titled) ?? 0) + 2);
      nearQuote.add(titled);
      return;
    }
    // A titled name right before its verb counts even when said once: 七斤嫂看见七斤回来，便问他说.
    for (let len = Math.min(5, c.length); once && len >= 2; len--) {
      const p = c.slice(0, len);
      if (TITLED.test(p) && NAME_CHARS.test(p) && !speechy(p)) {
        evidence.set(p, (evidence.get(p) ?? 0) + 2);
        nearQuote.add(p);
        return;
      }
    }
    for (let len = Math.min(4, c.length); len >= 2; len--) {
      const p = c.slice(0, len);
      const rest = c.slice(len);
      // A name does not end inside an adverb (四婶慌忙的说 is 四婶) nor before its own title (赵秀才).
      if (MARKERS.some((m) => m.length > 1 && ((p.slice(-1) + rest).startsWith(m) || p.endsWith(m))))
        continue;
      if (rest && PERSON.test(p + rest[0]) && count(p + rest[0]) === count(p)) continue;
      if (speechy(p) || NOT_NAME.test(p) || MARKERS.some((m) => p.startsWith(m))) continue;
      if (!NAME_CHARS.test(p) || NOT_START.test(p) || /一$|一[口声下眼把个只]/u.test(p) || count(p) < 2)
        continue;
      if (notNameByWords(c, len)) continue;
      if (c.startsWith(`${p}了${p[0]}`)) continue; // 端相了端相: a verb said twice
      if (rest.startsWith('地')) return; // 更快地说, 坚定地说: an adverb
      // A verb with its aspect particle (找到了老程的屋子) is no name unless it looks like one.
      if (/^[着了过]/u.test(rest) && !(SURNAME.test(p) || /^[阿小老]/u.test(p) || TITLED.test(p))) return;
      // …or an adverbial before a speech verb (益堂自言自语地说, 高妈慢慢的说).
      const adverbial = /^[^，,。！？!?的地]{1,6}[地的](?:说|道|问|答|叫|喊|嚷)/u.test(rest);
      if (rest === '' || adverbial || MARKERS.some((m) => rest.startsWith(m)) || startsWithVerb.test(rest)) {
        if (startsWithVerb.test(rest) || adverbial) spoke.add(p);
        evidence.set(p, (evidence.get(p) ?? 0) + weight);
        if (weight === 2) nearQuote.add(p);
        return;
      }
      // Next to a quote the longest recurring start will do (公孙高辞让了一通之后，…问道) unless a
      // shorter start recurs much more (墨子知道 → 墨子).
      const relaxed = weight === 2 && !SPEECHY.test(rest[0] ?? '') && !/^[的里上中外内边]/u.test(rest);
      if (TITLED.test(p) || (relaxed && (len === 2 || count(p) * 2 >= count(p.slice(0, 2))))) {
        evidence.set(p, (evidence.get(p) ?? 0) + 2);
        nearQuote.add(p);
        return;
      }
    }
    // Said once, right before its verb (林黛玉听了，冷笑道 / 小明对妈妈说): the shortest start followed by
    // an adverbial or a verb.
    if (!once) return;
    for (let len = 2; len <= Math.min(4, c.length); len++) {
      const p = c.slice(0, len);
      const rest = c.slice(len);
      if (speechy(p) || NOT_NAME.test(p) || MARKERS.some((m) => p.startsWith(m)) || !NAME_CHARS.test(p))
        continue;
      if (NOT_START.test(p) || NUMBER_START.test(p) || rest.startsWith('地')) return;
      if (notNameByWords(c, len)) continue;
      if (rest && PERSON.test(p + rest[0])) continue;
      // A verb with its aspect particle ends no name (础翁夹着皮包): the name is what comes before the verb.
      if (/^[着了过]/u.test(rest)) {
        if (len > 2 && count(p.slice(0, -1)) >= 2) {
          evidence.set(p.slice(0, -1), (evidence.get(p.slice(0, -1)) ?? 0) + 2);
          nearQuote.add(p.slice(0, -1));
        }
        return;
      }
      // With nothing between it and the verb (贾母道) it must look like a name: a surname, 阿/小/老 or a title.
      const nameLike = SURNAME.test(p) || /^[阿小老]/u.test(p) || TITLED.test(p) || PERSON.test(p);
      if (
        (!rest && len <= 3 && nameLike) ||
        MARKERS.some((m) => rest.startsWith(m)) ||
        startsWithVerb.test(rest)
      ) {
        evidence.set(p, (evidence.get(p) ?? 0) + 2);
        nearQuote.add(p);
        return;
      }
    }
  };

  for (const [i, p] of paragraphs.entries()) {
    // A paragraph tagging the line before it (“…” / 润叶命令他说。) is next to that quote.
    const before = paragraphs[i - 1] ?? '';
    const tag = /[\p{L}\p{N}]/u.test(stripQuotes(before)) ? null : speechTag(p);
    if (tag && findQuotes(before).some((q) => q.speech)) {
      const parts = tag.replace(VERB_AT_END, '').split(/[，,；;]/u);
      for (const [k, clause] of parts.entries()) {
        const full = k === 0 || k >= lastWithSubject(parts);
        consider(clause, full ? 2 : 1, full);
      }
    }
    for (const q of findQuotes(p)) {
      if (!q.speech) continue;
      const sentence =
        quotesAsStops(p.slice(0, q.start))
          .split(/[。！？!?…]/u)
          .pop() ?? '';
      const v = VERB_AT_END.exec(sentence);
      // The clauses a speech verb's subject is looked for in first (the last and the first) count fully.
      const parts = v ? sentence.slice(0, v.index).split(/[，,；;]/u) : [];
      for (const [i, clause] of parts.entries()) {
        const full = i === 0 || i >= lastWithSubject(parts);
        consider(clause, full ? 2 : 1, full);
      }
      const a = AFTER_CLAUSE.exec(p.slice(q.end));
      if (a) consider(a[1], 2, AFTER_VERB.test(a[1]));
    }
    // A paragraph ending with …问道： introduces the next one's quote.
    const tail =
      quotesAsStops(p)
        .split(/[。！？!?…]/u)
        .pop() ?? '';
    if (/[：:]\s*$/u.test(tail)) {
      const parts = tail.replace(VERB_AT_END, '').split(/[，,；;]/u);
      for (const [i, clause] of parts.entries()) {
        const full = i === 0 || i >= lastWithSubject(parts);
        consider(clause, full ? 2 : 1, full);
      }
    }
    // In a paragraph with dialogue, who each sentence starts with may be the one a 他/她 stands for:
    // 小芳走进院子，放下篮子。她笑着说：“…”
    const dialogue = findQuotes(p).some((q) => q.speech);
    for (const sentence of stripQuotes(p).split(/[。！？!?…]/u)) {
      const [first, ...others] = sentence.split(/[，,；;：:]/u);
      // One who speaks in the narration (何小仙说了半句话) is a speaker even where no quote is near.
      const speaks = /^[^，,]{2,4}?(?:说了|说道|问道|答道|叫道|喊道|嚷道)/u.test(
        first.trim().replace(LEAD, ''),
      );
      consider(first, dialogue || speaks ? 2 : 1, dialogue || speaks);
      for (const clause of others) consider(clause, 1);
    }
  }
  // Places are not people: 未庄, 城里.
  const personLike = (name: string) =>
    (!/[里庄村镇城店屋堂院街]$/u.test(name) || spoke.has(name)) &&
    !/[外内]$/u.test(name) && // 窗外问道: a place, even before a speech verb
    !name.endsWith('们') && // 车夫们: a group, never one person
    !/[他她伊我你您这那]/u.test(name); // 经她这, 托这老人: a clause fragment around a pronoun
  const names = new Set(
    [...evidence]
      .filter(([name, n]) => n >= 2 && nearQuote.has(name) && personLike(name))
      .map(([name]) => name),
  );
  // Who the narration keeps naming as a subject but never next to a quote (子君, whose lines 她 says):
  // only whom a pronoun may stand for.
  if (narrated) for (const name of narrationNames(text, names)) if (personLike(name)) narrated.add(name);
  for (const name of singleCharNames(text, names)) names.add(name);
  // A four-character start always followed by the same character is a longer name cut short (红鼻子老 of
  // 红鼻子老拱): the clause starts above look at four characters at most.
  for (const n of [...names].filter((x) => x.length === 4)) {
    const next = new Set(
      text
        .split(n)
        .slice(1)
        .map((after) => after[0] ?? ''),
    );
    const [ch] = next;
    if (next.size === 1 && /\p{Script=Han}/u.test(ch) && !SPEECHY.test(ch) && !MARKERS.includes(ch)) {
      names.delete(n);
      names.add(n + ch);
    }
  }
  // A surname and one character nearly always followed by one of a few recurring characters is the start
  // of full names (孙玉 of 孙玉亭 and 孙玉厚: siblings and cousins share a generation character).
  for (const n of [...names].filter((x) => x.length === 2 && SURNAME.test(x))) {
    const next = new Map<string, number>();
    for (const after of text.split(n).slice(1)) next.set(after[0] ?? '', (next.get(after[0] ?? '') ?? 0) + 1);
    const full = [...next].filter(
      ([ch, k]) =>
        k >= 2 &&
        /\p{Script=Han}/u.test(ch) &&
        !SPEECHY.test(ch) &&
        !FUNCTION_CHARS.has(ch) &&
        !MARKERS.includes(ch),
    );
    const covered = full.reduce((sum, [, k]) => sum + k, 0);
    if (full.length && full.length <= 6 && covered >= 0.8 * (text.split(n).length - 1)) {
      names.delete(n);
      for (const [ch] of full) names.add(n + ch);
    }
  }
  // A name that is only ever the start of a longer one is dropped (孔乙 inside 孔乙己), and so is a
  // name plus a word (阿Q这回) when the name alone is far more frequent, unless a title ends it (七斤嫂).
  for (const n of [...names]) {
    for (const m of names) {
      if (m !== n && n.startsWith(m) && !TITLED.test(n) && count(n) * 3 < count(m)) names.delete(n);
    }
  }
  // A name that is only ever the start of a longer one is dropped (孔乙 inside 孔乙己).
  for (const n of [...names]) {
    for (const m of names) if (m !== n && m.startsWith(n) && count(m) === count(n)) names.delete(n);
  }
  return names;
}

/**
 * Who the narration keeps naming though never next to a quote (沛君, 子君, whose lines are all 他说 /
 * 她说): a two- or three-character start of four narration clauses or more, before three different
 * characters or more, that looks like a name (no verb, particle or pronoun in it).
 */
function narrationNames(text: string, names: Set<string>): string[] {
  const starts = new Map<string, Set<string>>();
  const seen = new Map<string, number>();
  for (const clause of text.split(/[，,。！？!?；;：:\n…—]/u)) {
    const c = clause.trim().replace(LEAD, '');
    for (const len of [2, 3]) {
      const p = c.slice(0, len);
      if (p.length < len || !NAME_CHARS.test(p) || SPEECHY.test(p) || NOT_NAME.test(p)) continue;
      if (NOT_START.test(p) || NUMBER_START.test(p) || PRONOUNS[p[0]] || CROWD.test(p) || PERSON.test(p))
        continue;
      if (FUNCTION_CHARS.has(p[0]) && !/^[小老阿]/u.test(p)) continue;
      seen.set(p, (seen.get(p) ?? 0) + 1);
      starts.set(p, (starts.get(p) ?? new Set()).add(c[len] ?? ''));
    }
  }
  return (
    [...seen]
      .filter(([p, n]) => n >= 4 && (starts.get(p)?.size ?? 0) >= 3)
      // Not a known name with a word after it (黛玉一), nor an animal (老鼠).
      .filter(
        ([p]) =>
          ![...names].some((m) => p.startsWith(m) || m.startsWith(p)) &&
          !/[一鼠猫狗鸡鸭鹅马牛羊猪鸟鱼虫蛇狼]$/u.test(p),
      )
      .filter(
        ([p, n]) =>
          !(p.length === 2 && [...seen].some(([q, m]) => q.length === 3 && q.startsWith(p) && m === n)),
      )
      .map(([p]) => p)
  );
}

/** Characters that start clauses without being names: pronouns, adverbs, conjunctions, particles. */
const FUNCTION_CHARS = new Set([
  ...'这那哪他她它伊我你您谁也就便又都却但而因所可是有在不没未一二三四五六七八九十百几只还已正才再很太最更从把被将对向跟和与或虽若如即乃且其此各每某些么了着过的地得上下中里外前后左右来去出进回到看听说想见等让叫使给用以为于至今时日月年天人大小老好多少真全本原总竟倒偏忙方仍亦皆俱遂乃忽当',
]);

/**
 * One-character names (羿, 禹): a character that starts many narration clauses, before several
 * different words, once at least before a verb of speech or thought (羿想, 羿说), and that is not
 * mostly the start of a longer name (女 of 女辛, 女乙).
 */
function singleCharNames(text: string, names: Set<string>): string[] {
  const starts = new Map<string, { count: number; next: Set<string>; speaks: boolean; inName: number }>();
  for (const clause of text.split(/[，,。！？!?；;：:…\n]/u)) {
    const c = clause
      .trim()
      .replace(/^[—…\s]+/u, '')
      .replace(LEAD, '');
    const ch = c[0];
    if (!ch || !/\p{Script=Han}/u.test(ch) || FUNCTION_CHARS.has(ch) || !/\p{Script=Han}/u.test(c[1] ?? ''))
      continue;
    const s = starts.get(ch) ?? { count: 0, next: new Set<string>(), speaks: false, inName: 0 };
    s.count++;
    s.next.add(c[1]);
    if (/^.[^，,]{0,4}?(?:说|道|问|想|叫|喊|嚷|答)/u.test(c)) s.speaks = true;
    if ([...names].some((n) => n.length > 1 && c.startsWith(n) && !FUNCTION_CHARS.has(n[1]))) s.inName++;
    starts.set(ch, s);
  }
  // A surname that starts two names or more of the text (赵太爷, 赵秀才) is their family's, no name.
  const family = (ch: string) =>
    SURNAME.test(ch) && [...names].filter((n) => n.length > 1 && n.startsWith(ch)).length >= 2;
  return [...starts]
    .filter(
      // …as often as a character the text is about (羿, 操: a clause in 500 characters of narration or
      // more): in a longer text 笑, 问, 自 of 宝玉听了，笑道 start clauses often enough in number alone.
      ([ch, s]) =>
        s.count >= 5 &&
        s.count * 500 >= text.length &&
        s.next.size >= 4 &&
        s.speaks &&
        s.inName * 2 < s.count &&
        !family(ch),
    )
    .map(([ch]) => ch);
}

type Subject =
  | { kind: 'name'; name: string }
  | { kind: 'pronoun'; gender: Gender }
  | { kind: 'crowd' }
  /** A speech verb without a subject: the character the sentence is about. */
  | { kind: 'zero' }
  /** 他的女人: the wife of the man 他 stands for — X嫂 when the text names her so (七斤 → 七斤嫂). */
  | { kind: 'wife' }
  /** 那人, 这人: the one the narration last introduced (望见一个大汉…那人就歇下车子). */
  | { kind: 'that' }
  | { kind: 'none' };

/** A description ending with a person noun (喝酒的人, 穿红绫袄的丫鬟 → 丫鬟), determiners dropped. */
function description(clause: string): string | null {
  let n = clause.replace(DETERMINER, '');
  if (PRONOUNS[n[0]] && n[1] === '的') n = n.slice(2); // 他的母亲 → 母亲
  const m = new RegExp(`^.*?(${PERSON.source.replace(/^\(\?:/u, '').replace(/\)\$$/u, '')})`, 'u').exec(n);
  if (!m) return null;
  let d = m[0];
  const rest = n.slice(d.length);
  // 人, 官, 兵 only in subject position: followed by nothing, an adverbial or a verb (一个喝酒的人说道,
  // not 是一件人生).
  const single = /^[人官兵娘母妈爹]$/u.test(m[1]);
  if (single && rest && !MARKERS.some((x) => rest.startsWith(x)) && !startsWithVerb.test(rest)) return null;
  // A verb phrase before 的 is a modifier (喝酒的人); without 的 the words must be a noun (小丫头).
  const head = d.includes('的') ? d.slice(d.lastIndexOf('的') + 1) : d;
  const prefix = d.slice(0, d.length - m[1].length);
  if (
    !d.includes('的') &&
    (prefix.length > 2 || /[有没到听看见做打是怕要让给替为]/u.test(prefix) || SPEECHY.test(prefix))
  )
    return null;
  // …nor the one told to do something (命那丫头子跪下, 叫小厮来).
  if (/^(?:看|见|听|问|向|对|只|是|把|被|和|跟|与|命|令|叫|教|让|请|使|派)/u.test(d)) return null;
  // Who is seen or met is the object (倘一看见两三岁的小孩子，她就说).
  if (/看见|望见|遇见|听见|瞧见|碰见/u.test(d)) return null;
  if (d.length > 6) d = head;
  if (d.length > 6 || /^[的地]/u.test(d) || !NAME_CHARS.test(d)) return null;
  return d;
}

const givenIndex = new WeakMap<Set<string>, Map<string, string>>();
/** One-character given names of two-character names with a surname (操 → 曹操), when only one has it. */
function givenNames(names: Set<string>): Map<string, string> {
  let index = givenIndex.get(names);
  if (!index) {
    const all = new Map<string, string[]>();
    for (const name of names)
      if (name.length === 2 && SURNAME.test(name)) all.set(name[1], [...(all.get(name[1]) ?? []), name]);
    index = new Map([...all].filter(([, v]) => v.length === 1).map(([k, v]) => [k, v[0]]));
    givenIndex.set(names, index);
  }
  return index;
}

const firstIndex = new WeakMap<Set<string>, Map<string, string[]>>();
/** Names by their first character (a clause is matched against a few, not all of a novel's). */
function byFirst(names: Set<string>): Map<string, string[]> {
  let index = firstIndex.get(names);
  if (!index) {
    index = new Map();
    for (const name of names) index.set(name[0], [...(index.get(name[0]) ?? []), name]);
    firstIndex.set(names, index);
  }
  return index;
}

/** Fuller forms of a name and the form the text uses (林黛玉 → 黛玉), per set of names. */
const fuller = new WeakMap<Set<string>, Map<string, string>>();
const canonical = (names: Set<string>, name: string) => fuller.get(names)?.get(name) ?? name;

/** The subject at the start of a clause, a name under the form the text uses. */
function subjectOf(clause: string, names: Set<string>): Subject {
  const s = subjectIn(clause, names);
  return s.kind === 'name' ? { kind: 'name', name: canonical(names, s.name) } : s;
}

/** The subject at the start of a clause: connectives dropped, a known name, a pronoun or a description. */
function subjectIn(clause: string, names: Set<string>): Subject {
  let raw = clause.trim().replace(/^[—…\s“”‘’]+/u, ''); // and a stray mark of a nested quote
  // 火光中只见云长提刀…: the one seen after a short scene-setting phrase acts.
  const seen = /^[^，,]{1,6}?(?:只见|但见|却见|忽见)(.+)$/u.exec(raw);
  if (
    seen &&
    byFirst(names)
      .get(seen[1][0])
      ?.some((name) => seen[1].startsWith(name))
  )
    raw = seen[1];
  const n = raw.replace(LEAD, '');
  if (!n || n.startsWith('自己')) return { kind: 'none' };
  // LEAD takes the 那 of 那人 (那人就歇下车子): the one just introduced, not a crowd.
  if (/[那这]$/u.test(raw.slice(0, raw.length - n.length)) && /^人(?![们家])/u.test(n))
    return { kind: 'that' };
  const wife = /^(他|[^的，,]{2,4})的(?:女人|老婆|妻子|媳妇)/u.exec(n)?.[1];
  if (wife === '他') return { kind: 'wife' };
  if (wife && names.has(wife) && names.has(`${wife}嫂`)) return { kind: 'name', name: `${wife}嫂` };
  if (CROWD.test(n) || GROUP.test(n) || n.includes('有人') || /^(?:[那这]|一个)人|^一个$/u.test(n))
    return { kind: 'crowd' };
  // 城下答应 / 窗外有人叫: a voice from a place, nobody the text names.
  if (/^(?:[城门窗院楼屋墙台帐船岸桥街房舱庙殿厅营寨]|隔壁|对门|外间|里间)[上下外里内前后口边头]?$/u.test(n))
    return { kind: 'crowd' };
  // 墙外就有庄七光的声音喊道: the voice of a known name is that one.
  const voice = /([^，,的]{2,6})的声音/u.exec(n)?.[1];
  const voiced =
    voice && [...names].filter((name) => voice.endsWith(name)).sort((a, b) => b.length - a.length)[0];
  if (voiced) return { kind: 'name', name: voiced };
  // 关、张二人曰 / 程昱、郭嘉曰: several named together speak as one voice.
  if (/^[^、，,]{1,4}、[^、，,]{1,4}/u.test(n) && !PRONOUNS[n[0]]) return { kind: 'crowd' };
  // 他爹说 / 她娘道: kin said without 的 are who speaks, as 他的母亲 is.
  const kin = /^[他她伊](爹|娘|妈|爸|哥哥|姐姐|弟弟|妹妹|叔叔|爷爷|奶奶|儿子|女儿)/u.exec(n)?.[1];
  if (kin) return { kind: 'name', name: kin };
  if (PRONOUNS[n[0]] && n[1] !== '们' && n[1] !== '的') return { kind: 'pronoun', gender: PRONOUNS[n[0]] };
  // 她的眼又找到祥子 / 他的脸红了: one's face or eyes act for them, as with a name.
  if (PRONOUNS[n[0]] && n[1] === '的' && /^(?:脸|眼|嘴|手|头|声音|面孔|神气|口气)/u.test(n.slice(2)))
    return { kind: 'pronoun', gender: PRONOUNS[n[0]] };
  if (n[0] === '我' && n[1] !== '们' && n[1] !== '的') return { kind: 'name', name: '我' };
  let known = '';
  for (const name of byFirst(names).get(n[0]) ?? [])
    if (n.startsWith(name) && name.length > known.length) known = name;
  // 操曰 / 承掩面而哭曰: a given name said alone before its verb is the one surname + it (曹操, 董承).
  if (
    !known &&
    (startsWithVerb.test(n.slice(1)) ||
      /^.[乃遂又亦便即急忙也却]/u.test(n) ||
      (n.length <= 6 && !description(n)))
  ) {
    const full = givenNames(names).get(n[0]);
    if (full) return { kind: 'name', name: full };
  }
  // 只有四叔且走而且高声的说: 只有 before a known name (only there: 只有一只狗 names nobody).
  const only = /^(?:只有|唯有|惟有|独有)/u.exec(n)?.[0];
  if (!known && only) {
    const rest = n.slice(only.length);
    for (const name of byFirst(names).get(rest[0]) ?? [])
      if (rest.startsWith(name)) return { kind: 'name', name };
  }
  // 庄七光的脸上就走了油 / 三角脸的拿起茶碗: one's face or voice, or one called by a feature, acts.
  const own = n.slice(known.length + 1);
  const acting =
    /^(?:脸|眼|嘴|手|头|声音|面孔|神气|口气)/u.test(own) || /^[拿走说问笑看站坐喊叫嚷]/u.test(own);
  if (known && (n[known.length] !== '的' || known.endsWith('家的') || acting)) {
    // A bare title (秀才) names the one character whose name ends with it (赵秀才).
    const fuller = [...names].filter((name) => name !== known && name.endsWith(known));
    return { kind: 'name', name: PERSON.test(known) && fuller.length === 1 ? fuller[0] : known };
  }
  // 胖脸的庄七光 / 本来对了庙门立着的他: a short description before a known name is that name.
  // …when the name then acts (看不上眼的王胡尚且那么多 is no one acting).
  const modified = /^[^，,的]{1,3}的(.+)$/u.exec(n)?.[1];
  for (const name of modified ? (byFirst(names).get(modified[0]) ?? []) : []) {
    const then = modified?.slice(name.length) ?? '';
    if (
      modified?.startsWith(name) &&
      (!then || MARKERS.some((m) => then.startsWith(m)) || startsWithVerb.test(then))
    )
      return { kind: 'name', name };
  }
  const d = description(n);
  if (!d) return { kind: 'none' };
  // A description followed by the name it is (他的学生庚桑楚): the name.
  const after = n.slice(n.indexOf(d) + d.length);
  for (const name of byFirst(names).get(after[0]) ?? [])
    if (after.startsWith(name)) return { kind: 'name', name };
  if (d === '人' || n.startsWith(`${d}们`)) return { kind: 'crowd' }; // 孩子们道
  // The description names a known character: 那秀才 → 赵秀才, 尼姑 → 小尼姑, 七斤嫂子 → 七斤嫂.
  // (小顺儿的妈 is not 小顺儿.)
  const linked = [...names].filter(
    (name) => name.endsWith(d) || (d.startsWith(name) && d[name.length] !== '的'),
  );
  return { kind: 'name', name: linked.length === 1 ? linked[0] : d };
}

/** Whose voice the narration right after a quote says it was, if it names one. */
function heardAfter(after: string, names: Set<string>): Subject | null {
  // “…”似乎是蓝皮阿五的声音 / 贾芸听见是宝玉的声音: whose voice the narration says it was.
  const voice =
    /^\s*[，,]?\s*(?:[^，,。！？!?]{1,4}?(?:听见|听出|听得|知道))?(?:这|那)?(?:似乎|仿佛|好像|大约|原来|正|分明|明明|显然)?是([^，,。！？!?]{1,8}?)的声音/u.exec(
      after,
    ) ??
    // “…”说话的大约是回来的伤兵: who the narration says was talking.
    /^\s*[，,]?\s*说(?:话|这话)的(?:人)?(?:似乎|仿佛|好像|大约|原来|分明|正)?是([^，,。！？!?]{1,8})/u.exec(
      after,
    );
  const voiced = voice && subjectOf(voice[1], names);
  if (voiced?.kind === 'name') return voiced;
  // …also a name the learner has not met as a speaker (是宝玉的声音).
  const named = voice?.[1];
  if (
    named &&
    named.length <= 3 &&
    NAME_CHARS.test(named) &&
    !SPEECHY.test(named) &&
    !FUNCTION_CHARS.has(named[0])
  )
    return { kind: 'name', name: named };
  // “…”小红闻听，…一看，原来是本院的个小丫头佳蕙: the one seen when the voice is looked for.
  const seen =
    /^[^。！？!?“]{0,24}?(?:一看|一望|看时|望时)[，,]\s*原来(?:是|却是)([^，,。！？!?]{1,12})/u.exec(
      after,
    )?.[1];
  const closing = seen && [...names].filter((n) => seen.endsWith(n)).sort((a, b) => b.length - a.length)[0];
  return closing ? { kind: 'name', name: closing } : null;
}

/**
 * A paragraph that only tags the line before it (“…” / 润叶命令他说。, 走在旁边的润叶问他。): one
 * sentence with no quote ending on a speech verb or on one with its listener, as a paragraph ending with
 * a colon would announce it; null for anything else (他没有说。, 少安不好意思地笑了。).
 */
function speechTag(paragraph: string): string | null {
  const body = paragraph.trim().replace(/[。！!]$/u, '');
  if (body === paragraph.trim() || body.length > 40 || /[。！？!?…；;：:“”「」"]/u.test(body)) return null;
  if (/(?:不|没|未|别|难以|无法|怎么|什么)[^，,]{0,3}(?:说|道|问|答|喊|叫|嚷|骂)(?:道|了)?$/u.test(body))
    return null;
  const verb = /(?:说|道|问|答|喊|叫|嚷|骂)(?:道|了)?$/u.test(body);
  const listener = /(?:问|告诉|回答|嘱咐|吩咐|命令|叮咛|安慰|质问)[\p{Script=Han}]{1,4}$/u.test(body);
  return verb || listener ? `${body}：` : null;
}

/** Speaker and listener named in the narration before (same sentence) or after a quote. */
function speakerNear(
  before: string,
  after: string,
  names: Set<string>,
): { subject: Subject; listener: Subject | null } {
  const sentence = before.split(/[。！？!?…]/u).pop() ?? '';
  const lastClause = sentence.replace(/[：:]\s*$/u, '');
  const to = TO_LISTENER.exec(sentence);
  const listener = to ? subjectOf(to[1], names) : null;
  const v = VERB_AT_END.exec(sentence);
  const colon = /[：:]\s*$/u.test(sentence);
  // A voice with nobody named (只听里面…笑说道：“…” / 忽听窗外问道：“…”) is the one the narration
  // after it recognises (贾芸听见是宝玉的声音 / 一看，原来是本院的小丫头佳蕙).
  const heard = heardAfter(after, names);
  if (v || colon || (to && /[，,]\s*$/u.test(sentence))) {
    const cut = to ? sentence.slice(0, to.index) : v ? sentence.slice(0, v.index) : lastClause;
    // 张三笑着说： / 林黛玉听了，冷笑道： — the nearest clause with a subject, back to the sentence's
    // start; a crowd only when no one is named (众人不解其语，黛玉便忖度着…，因答道：).
    // The clause right before the verb decides when it has a subject, a crowd included (有的叫道).
    let crowd: Subject | null = null;
    const parts = cut.split(/[，,；;]/u).reverse();
    // A pivot right before a subjectless verb: 看见他的女人非常高兴，问他说 — she asks.
    // …早看见对门的王九妈在街边坐着，远远地说话： — the one seen, after a place that qualifies her.
    // …but not after one the sentence brought in (只见一个小丫头跑来，见小红站在那里，便问道: she asks).
    const pivot = /^(?:早|又|便|就|却)?(?:看见|只见|望见|见)(.+)/u.exec(parts[1] ?? '');
    const brought = parts
      .slice(2)
      .some((part) => /^(?:只见|忽见|又见)?(?:一个|一位|两个)/u.test(part.trim()));
    if (pivot && !brought && subjectOf(parts[0], names).kind === 'none') {
      const s = subjectOf(pivot[1], names);
      if (s.kind === 'name' || s.kind === 'wife') return { subject: s, listener };
      const seen = /^[^，,]{1,6}?的(.+)/u.exec(pivot[1]);
      const named = seen && subjectOf(seen[1], names);
      if (named?.kind === 'name' && names.has(named.name)) return { subject: named, listener };
    }
    for (const [i, part] of parts.entries()) {
      // 小红…一看，原来是本院的小丫头佳蕙，因答说: who was seen is not who answers.
      if (i > 0 && i < parts.length - 1 && /^\s*原来(?:是|却是)/u.test(part)) continue;
      const s = subjectOf(part, names);
      if (s.kind === 'crowd' && (i > 0 || heard)) crowd ??= s;
      else if (s.kind !== 'none') return { subject: s, listener };
    }
    if (heard) return { subject: heard, listener };
    if (crowd) return { subject: crowd, listener };
    if (v || to) return { subject: { kind: 'zero' }, listener }; // …，又说道：
  }
  if (heard) return { subject: heard, listener: null };
  const a = AFTER_CLAUSE.exec(after);
  if (a) {
    const withVerb = AFTER_VERB.exec(a[1]);
    const s = subjectOf(withVerb ? withVerb[1] : a[1], names);
    // Without a speech verb only a character's own action counts: “…”阿Q站起来.
    // …and so does theirs, said with a pronoun (“原来有保险灯在这里！”他们并不怕).
    const theirs = s.kind === 'crowd' && /^\s*[，,]?\s*[他她伊]们/u.test(after);
    if (withVerb ? s.kind !== 'none' : s.kind === 'name' || s.kind === 'pronoun' || theirs) {
      const to2 = TO_LISTENER.exec(withVerb ? withVerb[0] : '');
      return { subject: s, listener: to2 ? subjectOf(to2[1], names) : null };
    }
  }
  // A named character with a speech verb later in the sentence after the quote: “…”好一会，四婶这才惊叫起来.
  const rest = after
    .split(/[。！？!?“「"]/u)[0]
    .split(/[，,；;]/u)
    .slice(1);
  for (const clause of rest) {
    const withVerb = AFTER_VERB.exec(clause.trim());
    const s = withVerb && subjectOf(withVerb[1], names);
    if (s?.kind === 'name') return { subject: s, listener: null };
  }
  return { subject: { kind: 'none' }, listener: null };
}

function guessGender(fullName: string, paragraphs: string[]): Gender {
  const name = fullName.replace(/儿$/u, '');
  let score = 0;
  // A title says it outright (灰五婶 is a woman however often 他 follows her name).
  if (FEMALE_TITLES.test(name) && !MALE_TITLES.test(name)) return 'female';
  if (MALE_TITLES.test(name) && !FEMALE_TITLES.test(name)) return 'male';
  if (/^老/u.test(name) && SURNAME.test(name.slice(1))) score += 3; // 老王, 老张
  if (/^女./u.test(name)) score -= 3; // 女辛, 女乙: the maids' names
  const last = name[name.length - 1];
  if (FEMALE_CHARS.has(last) || (name.length > 1 && FEMALE_CHARS.has(name[name.length - 2]))) score -= 1;
  if (MALE_CHARS.has(last)) score += 1;
  // 他/她/伊 within the next few characters after the name in narration.
  for (const quoted of paragraphs) {
    const p = stripQuotes(quoted);
    let from = 0;
    for (;;) {
      const i = p.indexOf(name, from);
      if (i < 0) break;
      const window = p.slice(i + name.length, i + name.length + 24);
      const he = (window.match(/他(?!们)/g) ?? []).length;
      const she = (window.match(/[她伊](?!们)/g) ?? []).length;
      score += Math.sign(he - she);
      from = i + name.length;
    }
  }
  return score > 0 ? 'male' : score < 0 ? 'female' : 'unknown';
}

/** Words before a name that make it an object rather than who acts. */
const OBJECT_BEFORE =
  /(?:听得|听见|看见|看着|望着|见了|吩咐|告诉|嘱咐|对|向|和|跟|给|把|被|同|与|问|叫|请|让|替)$/u;
type Said = { speaker: string | null; speech: boolean };
/** How far back (in characters of narration) a pronoun's referent is looked for. */
const CONTEXT_CHARS = 400;
/** A section heading: a number alone, or 第…章/回/节 with its title. */
const HEADING =
  /^(?:[一二三四五六七八九十百零〇]+|[0-9０-９]+|第[一二三四五六七八九十百零〇0-9]+[章回节][^。！？!?“”]{0,30})$/u;
/** A narration paragraph up to this long inside an exchange does not end it. */
const ASIDE_CHARS = 80;

/**
 * Per paragraph, per quote (in the order of `findQuotes`): its speaker, or null (unnamed, or not
 * speech); `speech` tells which quotes are dialogue at all. `chapterSizes` (paragraphs per chapter, as
 * the import found them) are a long book's chapters instead of the headings guessed from its text.
 */
export function quoteSpeakers(edition: string[], chapterSizes?: number[]): Said[][] {
  if (charsOf(edition) <= BOOK_CHARS) return readSection(edition);
  // A whole book is read chapter by chapter: names, genders, aliases and the exchange are learnt where
  // they are used (thresholds that suit a chapter let a book's hundreds of thousands of characters make
  // names of verbs: 笑 of 宝玉听了，笑道), and a chapter starts with nobody speaking.
  const out: Said[][] = [];
  for (const [start, end] of givenSpans(edition, chapterSizes) ?? chapterSpans(edition)) {
    const chapter = edition.slice(start, end);
    if (charsOf(chapter) <= BOOK_CHARS) {
      out.push(...readSection(chapter));
      continue;
    }
    // A long stretch with no heading: blocks, each read after the one before it (its names and exchange).
    const blocks: string[][] = [[]];
    let size = 0;
    for (const p of chapter) {
      if (size >= BLOCK_CHARS) {
        blocks.push([]);
        size = 0;
      }
      blocks[blocks.length - 1].push(p);
      size += p.length;
    }
    for (const [k, block] of blocks.entries()) {
      const lead = blocks[k - 1] ?? [];
      out.push(...readSection([...lead, ...block]).slice(lead.length));
    }
  }
  return out;
}

const charsOf = (paragraphs: string[]) => paragraphs.reduce((n, p) => n + p.length, 0);
/** Up to this many characters a text is read in one pass (a story, a chapter); a longer one by chapters. */
const BOOK_CHARS = 40000;
/** A chapter longer than BOOK_CHARS (a book whose headings were not kept) is read in blocks this long. */
const BLOCK_CHARS = 6000;
/** A chapter heading as a book's text keeps it (正文 第二十一回 曹操煮酒论英雄, 《》目录 第二十三回 …). */
const CHAPTER =
  /^[^。！？!?“”「」]{0,8}?第[一二三四五六七八九十百千零〇两0-9０-９]+[章回节卷][^。！？!?“”「」]{0,30}$/u;
/** The line some editions end a chapter with: (本章完). */
const CHAPTER_END = /^[（(]?本[章回]完[）)]?$/u;

/** [start, end) of each chapter of a book's paragraphs: at its headings, after its end marks. */
function chapterSpans(paragraphs: string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = 0;
  for (const [i, p] of paragraphs.entries()) {
    const t = p.trim();
    if (i > start && (HEADING.test(t) || CHAPTER.test(t))) {
      spans.push([start, i]);
      start = i;
    }
    if (CHAPTER_END.test(t)) {
      spans.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < paragraphs.length) spans.push([start, paragraphs.length]);
  return spans;
}

/**
 * [start, end) of each chapter the import found, when its sizes cover the paragraphs; none when they do
 * not, or name one chapter only (a book the import found no chapters in: its headings are guessed).
 */
function givenSpans(paragraphs: string[], sizes?: number[]): Array<[number, number]> | null {
  if (!sizes || sizes.filter((n) => n > 0).length < 2) return null;
  if (sizes.some((n) => !Number.isInteger(n) || n < 0)) return null;
  if (sizes.reduce((a, b) => a + b, 0) !== paragraphs.length) return null;
  const spans: Array<[number, number]> = [];
  let start = 0;
  for (const n of sizes) {
    if (n > 0) spans.push([start, start + n]);
    start += n;
  }
  return spans;
}

/** `quoteSpeakers` over one text read in one pass. */
function readSection(edition: string[]): Said[][] {
  // Note marks of annotated editions (墨子〔４〕, 赛神②) are not part of names.
  // A speech verb closing a paragraph with a dash (支支梧梧地说——) announces the next line as a colon does.
  const paragraphs = edition.map((p) =>
    p
      .replace(/〔[^〕]{1,4}〕|[①-⑳⑴-⒇㈠-㈩]/gu, '')
      .replace(/∶/gu, '：') // a ratio sign for a colon in some editions
      .replace(/((?:说|道|问|叫|喊|嚷)[了着]?)——\s*$/u, '$1：'),
  );
  const characters = readCharacters(paragraphs);
  // A story told by 我 (who then also speaks): the narration says 我 often.
  const narration = paragraphs.map(stripQuotes).join('');
  const firstPerson = (narration.match(/我(?!们)/gu)?.length ?? 0) * 200 > narration.length;
  const exchange: Exchange = { turns: [], context: '', pending: null };
  return paragraphs.map((p, i) => paragraphSpeakers(p, characters, exchange, firstPerson, paragraphs[i + 1]));
}

interface Characters {
  names: Set<string>;
  genders: Map<string, Gender>;
  genderOf(name: string): Gender;
  fits(name: string, g: Gender, strict?: boolean): boolean;
  referent(text: string, g: Gender, not: string | null, strict?: boolean): string | null | undefined;
  /** Roles the narration says are a named character: 关官，就是关尹喜. */
  aliases: Map<string, string>;
  /** Who has spoken so far (roles included): besides the names, whom a pronoun may stand for. */
  spoken: Set<string>;
  /** Names the narration keeps using but never next to a quote: a pronoun's last resort. */
  narrated: Set<string>;
}

/** 他的老朋友黄三: a character said to be his (or hers) in the text. */
const possessed = (name: string, text: string, g: Gender) =>
  new RegExp(`${g === 'male' ? '他' : '[她伊]'}的[^，,。！？!?]{0,8}${name}`, 'u').test(text);

/** The characters of a text: their names, their genders as met, and who a pronoun stands for. */
function readCharacters(paragraphs: string[]): Characters {
  const narrated = new Set<string>();
  const names = learnNames(paragraphs, narrated);
  const genders = new Map<string, Gender>();
  const spoken = new Set<string>();
  const genderOf = (name: string): Gender => {
    let g = genders.get(name);
    if (!g) {
      g = name === '我' ? 'unknown' : guessGender(name, paragraphs);
      genders.set(name, g);
    }
    return g;
  };
  /** Whether a character can be the referent of a pronoun of gender `g` (`strict`: known to be). */
  const fits = (name: string, g: Gender, strict = false) =>
    name !== '我' &&
    (g === 'unknown' ||
      (strict ? genderOf(name) === g : genderOf(name) !== (g === 'male' ? 'female' : 'male')));
  /**
   * Who a pronoun or a missing subject stands for: the subject of the nearest clause before it that
   * has one and fits, else the nearest named character mentioned. Null when that subject is a crowd.
   */
  const referent = (
    text: string,
    gender: Gender,
    not: string | null,
    strict = false,
  ): string | null | undefined => {
    let g = gender;
    // What a character thinks (单四嫂子心里计算：宝儿该有活命了) names nobody who acts.
    const clauses = text
      .replace(THOUGHT, '。')
      .split(/[，,。！？!?；;：:…]/u)
      .reverse();
    for (const clause of clauses) {
      // Who is seen is not who acts next (见祥子进来，他半恼半笑的说: the one who sees).
      if (/^(?:见|看见|望见|瞧见)/u.test(clause.trim())) continue;
      // Someone the narration introduces (开门出来的却是一个横眉怒目的门丁。他…喝道).
      // …and one who appears (忽然从城里闪出那一个黑色的人来。“…”他说).
      const introduced = /(?:是|闪出|走出|走进|挤进|跑出|跑进|钻出|来了)那?(?:一个|一位|个)(.+)$/u.exec(
        clause,
      );
      // …not one said of a subject (她分明已经纯乎是一个乞丐了: she, 祥林嫂, is described).
      const predicate = /^[他她伊]/u.test(clause.trim().replace(LEAD, ''));
      const role = introduced && !predicate && description(introduced[1]);
      if (role && role !== '人' && role !== not && g !== 'unknown' && fits(role, g, strict)) return role;
      // 人们仍然叫她祥林嫂: the pronoun named by the narration is that character.
      const named = /(?:叫|称|唤|喊)([他她伊])(?:做|作|为)?([\p{Script=Han}]{2,4})/u.exec(clause);
      const callee = named && [...names].find((n) => named[2].startsWith(n));
      if (callee && callee !== not && g !== 'unknown' && PRONOUNS[named[1]] === g) return callee;
      const s = subjectOf(clause, names);
      // A missing subject after a pronoun's clause is that pronoun's (他站住了，…，分明的叫道).
      if (s.kind === 'pronoun' && g === 'unknown') g = s.gender;
      if (s.kind === 'crowd' && g === 'unknown' && !not) return null;
      if (s.kind === 'name' && s.name !== not && fits(s.name, g, strict) && names.has(s.name)) return s.name;
      // A missing subject after a clause about what is someone's (红鼻子老拱的小曲，也早经唱完；…，唱道):
      // that someone.
      const owner =
        g === 'unknown' && s.kind === 'none'
          ? /^(.{2,5}?)的/u.exec(clause.trim().replace(LEAD, ''))?.[1]
          : undefined;
      if (owner && names.has(owner) && owner !== not) return owner;
      // One the subject tells to act (母亲叫闰土坐，他迟疑了一回 / 我便招宏儿走近面前): when the subject
      // does not fit the pronoun, that one does.
      const told = PIVOT.exec(clause)?.[1];
      const pivot = told && [...names].find((n) => told.startsWith(n));
      if (pivot && pivot !== not && g !== 'unknown' && fits(pivot, g, strict)) return pivot;
    }
    let best: { end: number; name: string } | null = null;
    // Only the names whose first character occurs in the text are looked for.
    // (Not every word whose gender was asked: 失意人 of 他倒很亲近失意的人 is nobody.)
    const candidates = new Set(spoken);
    for (const ch of new Set(text)) for (const name of byFirst(names).get(ch) ?? []) candidates.add(name);
    for (const name of candidates) {
      // The last mention that is not an object (听得桩家的歌唱, 对阿Q说).
      let at = text.lastIndexOf(name);
      while (at > 0 && OBJECT_BEFORE.test(text.slice(Math.max(0, at - 2), at)))
        at = text.lastIndexOf(name, at - 1);
      if (at < 0 || canonical(names, name) === not || !fits(name, g, strict)) continue;
      // 他的老朋友黄三: one said to be his is not who 他 is.
      if (g !== 'unknown' && possessed(name, text, g)) continue;
      const end = at + name.length;
      if (!best || end > best.end || (end === best.end && name.length > best.name.length))
        best = { end, name };
    }
    return best ? canonical(names, best.name) : undefined;
  };
  const aliases = new Map<string, string>();
  for (const p of paragraphs)
    for (const m of stripQuotes(p).matchAll(
      /([\p{Script=Han}]{1,6})[，,]?(?:就是|便是|也就是)([\p{Script=Han}]{2,4})/gu,
    )) {
      const role = description(m[1].replace(/^(?:其次是|其次|然后是|接着是|是)/u, ''));
      const name = [...names].find((n) => m[2].startsWith(n));
      if (role && role !== '人' && name && name !== role) aliases.set(role, name);
    }
  // One person under a name and its fuller form is one role, under the form the text uses (a fuller
  // form contains it, so the shorter is always said at least as often): 林黛玉 → 黛玉, 华老栓 → 老栓,
  // 凤姐儿 → 凤姐.
  // A nickname before a name is one too (蓝皮阿五 → 阿五); a bare title is not a name (秀才 is whoever
  // the narration says, 赵秀才 the one it names).
  // A number and a title (四爷, 七嫂) is a name too, when one fuller form alone ends with it (刘四爷 → 四爷).
  const forms = new Map<string, string>();
  for (const short of names) {
    const numbered = /^[一二三四五六七八九十]+\p{Script=Han}{1,2}$/u.test(short) && TITLED.test(short);
    if (short.length < 2 || PERSON.test(short) || (TITLED.test(short) && !numbered)) continue;
    const fulls = [...names].filter(
      (full) => full !== short && full.endsWith(short) && full.length - short.length <= 3,
    );
    // A title two fuller names end with (洪太尉, 高太尉) is two people's: neither is merged into it.
    if (fulls.length > 1) continue;
    for (const full of fulls) forms.set(full, short);
  }
  for (const short of names) if (names.has(`${short}儿`)) forms.set(`${short}儿`, short);
  for (const [alias, name] of otherForms(names, paragraphs.map(stripQuotes).join('\n')))
    if (!forms.has(alias)) forms.set(alias, forms.get(name) ?? name);
  fuller.set(names, forms);
  return { names, genders, genderOf, fits, referent, aliases, spoken, narrated };
}

/** Who someone is called by age or sex, not by a name or a trade (老头子, 妇人; not 车夫, 掌柜). */
const EPITHET =
  /^(?:老头子|老头儿|老头|老者|老人|老汉|老太太|老太婆|老婆子|老妇人|妇人|女人|男人|汉子|大汉|姑娘|少年|后生|小伙子)$/u;
/** Forms of address that make no other person of a name (虎妞, 虎姑娘; not 七斤嫂, the wife of 七斤). */
const FEMALE_ADDRESS = /(?:姑娘|小姐|姐姐|妹妹|丫头|妞|姐|妹)$/u;
const MALE_ADDRESS = /(?:老爷|大爷|二爷|少爷|哥哥|大哥|爷|哥)$/u;
const sexOf = (name: string): Gender =>
  MALE_TITLES.test(name) || /老头子$/u.test(name) ? 'male' : FEMALE_TITLES.test(name) ? 'female' : 'unknown';

/**
 * Other forms of one person's name, each with the name it is (one role, one voice in the turn-taking):
 * - one stem with two forms of address of one sex, or with none (虎妞, 虎姑娘; 袭人, 袭人姐姐), or a name
 *   after 阿/老/小 (阿五, 五; not 老尼姑, 尼姑: a description; not 老栓 and 小栓, father and son), under
 *   the form the narration says most;
 * - an epithet the narration gives a surname twice or more (刘老头子) when one name alone starts with that surname
 *   (刘四爷) and no other surname takes it (杨太太, 管太太: 太太 stays whoever the scene says).
 */
function otherForms(names: Set<string>, narration: string): Map<string, string> {
  const out = new Map<string, string>();
  const stems = new Map<string, string[]>();
  for (const name of names) {
    // A rank among siblings is no stem: 二妹 and 二姐 are two sisters.
    const addressed = name.replace(FEMALE_ADDRESS, '').replace(MALE_ADDRESS, '');
    const stem = addressed && !/^[一二三四五六七八九十大小老]+$/u.test(addressed) ? addressed : name;
    const bare = name.replace(/^[阿老小]/u, '');
    const key = stem !== name ? stem : bare !== name && names.has(bare) && !PERSON.test(bare) ? bare : name;
    stems.set(key, [...(stems.get(key) ?? []), name]);
  }
  for (const group of stems.values()) {
    const sexes = new Set(group.map(sexOf).filter((g) => g !== 'unknown'));
    if (group.length < 2 || sexes.size > 1) continue;
    const times = new Map(group.map((n) => [n, occurrences(narration, n)]));
    const [main] = [...group].sort(
      (a, b) => (times.get(b) ?? 0) - (times.get(a) ?? 0) || a.length - b.length,
    );
    for (const n of group) if (n !== main) out.set(n, main);
  }
  for (const epithet of [...names].filter((n) => PERSON.test(n))) {
    // 刘老头子 is said of 老头子, not of 老头.
    const longer = [...names].filter((n) => n !== epithet && n.startsWith(epithet));
    const own = new RegExp(
      `(.)${epithet}${longer.map((n) => `(?!${n.slice(epithet.length)})`).join('')}`,
      'gu',
    );
    const times = new Map<string, number>();
    for (const [, c] of narration.matchAll(own)) if (SURNAME.test(c)) times.set(c, (times.get(c) ?? 0) + 1);
    const surnames = [...times].filter(([, n]) => n >= 2).map(([c]) => c);
    if (surnames.length !== 1 || out.has(epithet)) continue;
    const [surname] = surnames;
    const named = [...names].filter(
      (n) => n.startsWith(surname) && n !== surname + epithet && !n.includes(epithet) && !out.has(n),
    );
    const sexes = new Set([epithet, ...named].map(sexOf).filter((g) => g !== 'unknown'));
    if (named.length === 1 && sexes.size <= 1) out.set(epithet, named[0]);
  }
  return out;
}

/** The person the narration last introduced with 一个/一位 (远远的望见一个大汉，推着…), if any. */
function introduced(text: string): string | null {
  let found: string | null = null;
  for (const m of text.matchAll(/[一两](?:个|位|名)([^，,。！？!?；;：:]{1,10})/gu)) {
    const d = description(m[1]);
    if (d && d !== '人') found = d;
  }
  return found;
}

/** The exchange so far, carried from paragraph to paragraph. */
interface Exchange {
  /** Who spoke each line, to whom, and whether it was a crowd (有人, 他们). */
  turns: Array<{ speaker: string | null; listener: string | null; crowd: boolean; said: Said }>;
  /** The narration of the paragraphs before (quotes as stops), where a pronoun's referent may be. */
  context: string;
  /** Who a paragraph ending with …问他说： announces as the next quote's speaker, and to whom. */
  pending: { speaker: string | null; listener: string | null } | null;
  /** Who a short narration aside since the last line was about (墨子也笑了一笑。): they reacted. */
  aside?: string | null;
  /** The last one of each gender who spoke: who a 他/她 with nobody fitting nearby is. */
  salient?: Partial<Record<Gender, string>>;
}

/**
 * Whose voice the first sentence of a paragraph recognises (知道是叔齐 / 这是姜太公的声音), if it does:
 * a known name, a description, or a surname with a title said there.
 */
function voiceIn(paragraph: string, names: Set<string>): string | null {
  const first = quotesAsStops(paragraph)
    .split(/[。！？!?]/u)
    .slice(0, 2)
    .join('。');
  const m =
    /(?:知道|听出|听得出|认得|认出)(?:这|那)?(?:就|便)?是([^，,。！？!?]{2,24}?)(?:的声音|$|[，,。])/u.exec(
      first,
    ) ?? /(?:这|那)(?:就|便|分明|原来)?是([^，,。！？!?]{2,6}?)的声音/u.exec(first);
  if (!m) return null;
  // …便知道是暗暗进来的打牌的老朋友黄三: the name closing a description.
  const closing = [...names].filter((n) => m[1].endsWith(n)).sort((a, b) => b.length - a.length)[0];
  if (closing) return closing;
  const s = subjectOf(m[1], names);
  if (s.kind === 'name') return s.name;
  return SURNAME.test(m[1]) && NAME_CHARS.test(m[1]) && !SPEECHY.test(m[1]) ? m[1] : null;
}

/** Whether a line calls `name` (a clause of its own: 走罢，眉间尺！ / 悟空！你…). */
function vocative(text: string, name: string): boolean {
  const parts = text.split(/[，,！!。？?…；;—]/u);
  return parts.some((part, i) => {
    // “我，祥子！” names oneself.
    if (/^(?:我|是我|我是)$/u.test(parts[i - 1]?.trim() ?? '')) return false;
    const called = part.trim().replace(/[啊呀呵哪]$/u, '');
    // …or by the end of the name with a kinship title (红姐姐 is 小红).
    const bare = called.replace(/(?:姐姐|妹妹|哥哥|大哥|大姐|二爷|奶奶|姑娘)$/u, '');
    return (
      called === name ||
      (bare !== called && bare.length >= 1 && name.length > bare.length && name.endsWith(bare))
    );
  });
}

/** A verb telling someone to act: 叫闰土坐, 招宏儿走近. */
const PIVOT =
  /(?:叫|请|让|教|劝|催|逼|招|唤|喊)([\p{Script=Han}]{1,4}?)(?:走近|走过|过来|进来|出去|进去|坐下|坐|站|来|去)/u;

/** Where the narration has someone start talking with another (和他闲话 / 问她), and with whom. */
function talkingTo(narration: string): { at: number; to: string } | null {
  let found: { at: number; to: string } | null = null;
  const talk =
    /(?:和|同|跟|与)([\p{Script=Han}]{1,4}?)(?:闲话|闲谈|谈天|谈话|说话|攀谈|聊天|说起话来)|(?:^|[，,：:])问(他|她|伊)/gu;
  for (const m of narration.matchAll(talk)) found = { at: m.index ?? 0, to: m[1] ?? m[2] };
  // Only at the end of the paragraph does it open the lines that follow.
  return found && !/[。！？!?]/u.test(narration.slice(found.at).replace(/[。！？!?]\s*$/u, ''))
    ? found
    : null;
}

/** The speakers of one paragraph's quotes; moves the exchange on past the paragraph. */
function paragraphSpeakers(
  p: string,
  { names, genderOf, fits, referent, aliases, spoken, narrated }: Characters,
  exchange: Exchange,
  firstPerson: boolean,
  following = '',
): Said[] {
  let { turns, context, pending } = exchange;
  const quotes = findQuotes(p);
  const row: Said[] = [];
  /** A subject as a name; `not` is the speaker when resolving the listener (对他说: 他 is not me). */
  const resolve = (s: Subject | null, before: string, not: string | null = null): string | null => {
    if (!s || s.kind === 'crowd' || s.kind === 'none') return null;
    if (s.kind === 'name') return s.name;
    if (s.kind === 'wife') {
      const husband = resolve({ kind: 'pronoun', gender: 'male' }, before, not);
      return husband && names.has(`${husband}嫂`) ? `${husband}嫂` : '女人';
    }
    if (s.kind === 'that') return introduced(before) ?? introduced(context) ?? null;
    // A character known to be of the pronoun's gender first, then one not known to be of the other;
    // 他 also stands for women in older texts (红楼梦), so at last anyone.
    const g = s.kind === 'pronoun' ? s.gender : 'unknown';
    const tries: Array<[Gender, boolean]> =
      g === 'unknown'
        ? [['unknown', false]]
        : [[g, true], [g, false], ...(g === 'male' ? [['unknown', false] as [Gender, boolean]] : [])];
    for (const [gender, strict] of tries) {
      // The paragraph so far first, then the narration before it.
      const n = referent(before, gender, not, strict);
      if (n !== undefined && (n !== null || !strict)) return n;
      const c = referent(context, gender, not, strict);
      if (!c) continue;
      // One the narration before was about who has not spoken in the exchange does not take 她 from
      // one of those speaking (女辛便…送在嫦娥的眼前。 / “哼！”她瞥了一眼: 嫦娥, who spoke before).
      if (s.kind !== 'pronoun' || turns.some((t) => t.speaker === c || t.listener === c)) return c;
      if (new RegExp(`(?:叫|称|唤|喊)[他她伊](?:做|作|为)?${c}`, 'u').test(context)) return c; // named so
      // The two who spoke last (a line of three quotes is one voice).
      const talking = [...new Set(turns.map((t) => t.speaker).reverse())]
        .filter((w): w is string => !!w)
        .slice(0, 2)
        .find((w) => w !== not && w !== '我' && fits(w, gender));
      return talking ?? c;
    }
    // Nobody fitting in the narration at hand (a long tale in between): 她 is the one of her gender
    // still speaking in the exchange, else the last one of that gender who spoke.
    if (s.kind === 'pronoun') {
      const speaking = turns
        .map((t) => t.speaker)
        .findLast((w): w is string => !!w && w !== not && fits(w, s.gender, true));
      const recent = exchange.salient?.[s.gender];
      if (speaking) return speaking;
      if (recent && recent !== not) return recent;
      // …and at last the one of that gender the narration named last (她 is 子君, never by a quote).
      const text = context + before;
      const last = [...narrated]
        .filter((n) => n !== not && fits(n, s.gender, true))
        .map((n) => ({ n, at: text.lastIndexOf(n) }))
        .filter((x) => x.at >= 0)
        .sort((a, b) => b.at - a.at)[0];
      return last?.n ?? null;
    }
    return null;
  };
  /**
   * Who acts in the last sentence of some narration (吸了两口烟，他完全醒明白了 → 老程), as a name, when
   * that one has already spoken (a word learnt as a name, 绳子还在他手中, does not start to talk).
   */
  const actor = (narration: string): string | null => {
    // The last sentence with a subject: 她向来不…服软！好吧，爽性来干脆的吧…！“…”
    const sentences = narration.split(/[。！？!?…]/u).filter((x) => /[\p{L}\p{N}]/u.test(x));
    for (const sentence of sentences.reverse())
      for (const clause of sentence.split(/[，,；;：:]/u)) {
        const s = subjectOf(clause, names);
        // One who hears a voice (忽然间听得一个声音，“…”) is not the one speaking.
        if (s.kind === 'crowd' || /听得|听见|听到/u.test(clause)) return null;
        if (s.kind === 'none') continue;
        const who = s.kind === 'name' ? s.name : resolve(s, narration);
        return who && (spoken.has(who) || looksLikePerson(who)) ? who : null;
      }
    return null;
  };
  let lastEnd = 0;
  for (const [k, q] of quotes.entries()) {
    if (!q.speech) {
      row.push({ speaker: null, speech: false });
      continue;
    }
    const before = quotesAsStops(p.slice(0, q.start));
    const next = quotes.slice(k + 1).find((x) => x.speech);
    const after = p.slice(q.end, next?.start ?? p.length);
    const near = speakerNear(before, after, names);
    const bare = !/[\p{L}\p{N}]/u.test(stripQuotes(p.slice(lastEnd, q.start)));
    const last = turns[turns.length - 1];
    let speaker = resolve(near.subject, before);
    // “狗屁！”他…在老钵的头顶上打了一下: one the pronoun acts on in its own sentence is not who it is.
    const own = after.split(/[。！？!?“「"]/u)[0];
    if (
      near.subject.kind === 'pronoun' &&
      speaker &&
      /^\s*[，,]?\s*[他她伊]/u.test(after) &&
      own.includes(speaker)
    )
      speaker = resolve(near.subject, before, speaker);
    // 她说，“…” after her own line in the paragraph: still her.
    const previous = row.findLast((r) => r.speech)?.speaker;
    if (near.subject.kind === 'pronoun' && previous && fits(previous, near.subject.gender))
      speaker = previous;
    // A new paragraph is a new turn: 她 after the other one's line (“…”她含胡的回答) is not that one —
    // unless she goes on (“…”她又…说).
    const goesOn = /^\s*[，,]?\s*[他她伊](?:又|还|仍|便又|接着|继续)/u.test(after);
    // So is a missing subject (…，又问道：“…” after the other's answer).
    const turnTaker = (near.subject.kind === 'pronoun' && bare) || near.subject.kind === 'zero';
    // …not when the paragraph names them before the line (凤姐儿自觉酒沉了，…便和尤氏说：“…”).
    const namedHere = !!speaker && stripQuotes(p.slice(0, q.start)).includes(speaker);
    if (turnTaker && k === 0 && last?.speaker === speaker && !goesOn && !namedHere) {
      const g = near.subject.kind === 'pronoun' ? near.subject.gender : 'unknown';
      const other = turns
        .slice(0, -1)
        .reverse()
        .find((t) => t.speaker && t.speaker !== speaker && fits(t.speaker, g, g !== 'unknown'));
      // …but not one the pronoun acts on in its own sentence (“呵呵！”他…提起眉间尺的头来).
      if (other?.speaker && !own.includes(other.speaker)) speaker = other.speaker;
    }
    // 他 right after a line said to him is the one spoken to (掌柜…对他说，“…”但他这回…).
    if (
      near.subject.kind === 'pronoun' &&
      last?.listener &&
      last.listener !== '我' &&
      speaker === last.speaker &&
      fits(last.listener, near.subject.gender, near.subject.gender === 'female')
    )
      speaker = last.listener;
    // Within a paragraph, the one who just spoke does not answer themself: the narration after the
    // line introduces the next one (“…”“什么清白？…”孔乙己便涨红了脸，争辩道，“…”).
    let subject = near.subject;
    if (k > 0 && after.trim() && bare && last && speaker === last.speaker) {
      speaker = null;
      subject = { kind: 'none' };
    }
    let listener = resolve(near.listener, before, speaker);
    // A line alone whose voice the next paragraph recognises: “大哥！” / 一听声音自然就知道是叔齐。
    const alone = subject.kind === 'none' && !/[\p{L}\p{N}]/u.test(stripQuotes(p));
    // …or one the next paragraph tags (“…” / 润叶命令他说。): the only line of a paragraph of quotes.
    const tag = alone && quotes.filter((x) => x.speech).length === 1 ? speechTag(following) : null;
    const tagged = tag ? speakerNear(tag, '', names) : null;
    const byTag =
      tagged && (tagged.subject.kind === 'name' || tagged.subject.kind === 'pronoun')
        ? resolve(tagged.subject, '')
        : null;
    const heard = byTag ?? (alone ? voiceIn(following, names) : null);
    if (byTag && tagged?.listener) listener = resolve(tagged.listener, tag ?? '', byTag);
    if (heard) speaker = heard;
    else if (subject.kind === 'none' && k > 0 && !bare) {
      // Narration between two quotes of a paragraph names who goes on: “…”七爷说到这里，…，“…”, the
      // narrator too (“啊！地狱？”我很吃惊，只得支吾者，“…”).
      const between = stripQuotes(p.slice(lastEnd, q.start));
      const first = subjectOf(between.split(/[，,。！？!?；;]/u)[0], names);
      // …and 他 there is whoever 他 stands for before (“唉，”他不觉叹息，“…”).
      if (first.kind === 'name' && first.name === '我') speaker = '我';
      else if (first.kind === 'pronoun' || first.kind === 'that') speaker = resolve(first, before);
      // “…”两粒磷火下的声音说。“…”: a speech verb with nobody new named goes on with the same voice.
      else if (
        first.kind === 'none' &&
        previous &&
        !referent(between, 'unknown', null) &&
        /(?:说|道|曰|问|喊|叫|嚷)[了着]?[。，,：:]?\s*$/u.test(between.trim())
      )
        speaker = previous;
      else speaker = referent(between, 'unknown', null) ?? actor(between);
    } else if (subject.kind === 'none' && k === 0 && !bare) {
      // A line right after a sentence about a character's doing is theirs: 老程撇了半天嘴，…。“依我看哪…”
      speaker = actor(before);
    } else if (subject.kind === 'none' && k === 0 && pending && !/[\p{L}\p{N}]/u.test(p.slice(0, q.start))) {
      ({ speaker, listener } = pending); // …说：  /  “…”
    } else if (subject.kind === 'none' && bare && last) {
      // A bare quote in an exchange: the one spoken to answers, else the one who spoke two turns ago.
      // The other party: the last one in the exchange who is not the last speaker (a crowd stays unnamed).
      const prior = turns
        .slice(0, -1)
        .reverse()
        .find((t) => t.speaker !== last.speaker && (t.speaker || t.crowd));
      if (last.listener && last.listener !== last.speaker) speaker = last.listener;
      // After an unnamed single voice (a passer-by) the other party answers; after a crowd nobody named.
      else if (prior) speaker = last.speaker || !last.crowd ? prior.speaker : null;
      else if (last.speaker && last.speaker !== '我' && firstPerson)
        speaker = '我'; // answering the narrator
      // Nobody else spoke yet: the one the narration before was about (…公输般正捏着曲尺。“…”“他姓什么？”).
      else if (last.speaker) speaker = referent(context, 'unknown', last.speaker) ?? null;
      // …but one who only reacted in an aside (墨子也笑了一笑。) does not speak next: the other goes on.
      if (k === 0 && exchange.aside && speaker === exchange.aside && last.speaker && last.speaker !== speaker)
        speaker = last.speaker;
    }
    // A line that calls someone by name (“祥林嫂，你放着罢！”) is said to them.
    const called = /^([^，,！!？?。…\s]{2,4})[，,！!]/u.exec(q.text)?.[1];
    if (!listener && called && called !== speaker && (names.has(called) || spoken.has(called)))
      listener = called;
    // Nobody calls themself by name (“走罢，眉间尺！…”他说): the one called is not the speaker.
    if (speaker && speaker !== '我' && vocative(q.text, speaker)) {
      const self = speaker;
      if (subject.kind === 'pronoun' || subject.kind === 'zero') speaker = resolve(subject, before, self);
      else if (subject.kind === 'none') speaker = last?.speaker !== self ? (last?.speaker ?? null) : null;
      // …else one the sentence brought in (只见一个小丫头跑来，见小红…便问道：“红姐姐，…”).
      if (speaker === self) speaker = introduced(before.split(/[。！？!?]/u).pop() ?? '');
      listener ??= self;
    }
    // An epithet answering a line said to someone (“老者，…” / “…”老头儿立住) is the one spoken to, when
    // it fits them and the narration brings in nobody new (一个老头子).
    if (
      speaker &&
      EPITHET.test(speaker) &&
      last?.listener &&
      last.listener !== speaker &&
      last.listener !== '我' &&
      last.speaker !== speaker &&
      (names.has(last.listener) || spoken.has(last.listener)) &&
      fits(last.listener, sexOf(speaker)) &&
      !new RegExp(`[一两](?:个|位)[^，,。！？!?]{0,6}${speaker}`, 'u').test(before)
    )
      speaker = last.listener;
    // A role the narration said is a character (关官，就是关尹喜) is that character.
    if (speaker && aliases.has(speaker)) speaker = aliases.get(speaker) ?? speaker;
    // A minor role that names a character already speaking is that character: 那秀才 → 赵秀才.
    if (speaker && !names.has(speaker)) {
      const role = speaker;
      const same = [...spoken].filter((n) => n !== role && n.endsWith(role));
      if (same.length === 1) speaker = same[0];
    }
    if (speaker) spoken.add(speaker);
    const said = { speaker, speech: true };
    row.push(said);
    turns.push({
      speaker,
      listener: listener !== speaker ? listener : null,
      crowd: subject.kind === 'crowd',
      said,
    });
    lastEnd = q.end;
  }
  // A speech verb closing the paragraph announces the next paragraph's first quote.
  const tail = p.slice(quotes.length ? quotes[quotes.length - 1].end : 0);
  pending = null;
  if (/[：:]\s*$/u.test(tail)) {
    const near = speakerNear(quotesAsStops(p), '', names);
    const speaker = resolve(near.subject, quotesAsStops(p));
    pending = { speaker, listener: resolve(near.listener, quotesAsStops(p), speaker) };
  }
  const narration = stripQuotes(p);
  nameTheRole(narration, names, turns);
  // A paragraph of narration alone, unless a short aside, ends an exchange — not when it is about the
  // two who were speaking and nobody else (我很悚然，一见她的眼钉着我的…: the narrator and 她 go on).
  const about = (who: string | null) =>
    !!who &&
    (narration.includes(who) ||
      (who !== '我' &&
        /[他她伊](?!们)/u.test(narration) &&
        fits(who, /他/u.test(narration) ? 'male' : 'female')));
  const lastTwo = [...new Set(turns.slice(-4).map((t) => t.speaker))].slice(-2);
  // (A one-character name counts only as a clause's subject: 自 of 我自己 is nobody.)
  const someoneElse = () => {
    const subjects = new Set(
      narration.split(/[，,。！？!?；;：:]/u).map((c) => {
        const s = subjectOf(c, names);
        return s.kind === 'name' ? s.name : '';
      }),
    );
    return [...names].some(
      (n) => !lastTwo.includes(n) && (n.length > 1 ? narration.includes(n) : subjects.has(n)),
    );
  };
  // One of the two must be named (or be 我): a pronoun alone could be either.
  const named = lastTwo.some((who) => !!who && narration.includes(who));
  const ongoing = () => lastTwo.length === 2 && lastTwo.every(about) && named && !someoneElse();
  if (!row.some((r) => r.speech) && !pending && narration.length > ASIDE_CHARS && !ongoing()) turns = [];
  // Narration that sets two talking (我便招宏儿走近面前，和他闲话：问他…): the bare lines after it are
  // theirs, the one talked to first.
  const talk = !row.some((r) => r.speech) && !pending ? talkingTo(quotesAsStops(p)) : null;
  if (talk) {
    const sentence = quotesAsStops(p).slice(0, talk.at);
    const who = resolve(
      subjectOf(
        sentence
          .split(/[。！？!?]/u)
          .pop()
          ?.split(/[，,；;]/u)[0] ?? '',
        names,
      ),
      sentence,
    );
    const to = resolve(subjectOf(talk.to, names), sentence, who);
    if (who && to && who !== to)
      turns = [{ speaker: who, listener: to, crowd: false, said: { speaker: who, speech: false } }];
  }
  // A section heading (三, 第二章) starts a new scene: nobody before it is still speaking or referred to.
  if (HEADING.test(p.trim())) {
    turns = [];
    context = '';
  } else if (/[\p{L}\p{N}]/u.test(narration)) context = (context + quotesAsStops(p)).slice(-CONTEXT_CHARS);
  // A short narration aside about one named character (墨子也笑了一笑。) after a line.
  const asideSubject = subjectOf(narration.split(/[，,。！？!?；;]/u)[0] ?? '', names);
  // …or one the narration says keeps silent (他一时开不得口), however long it is.
  const silent = /开不得口|不开口|没有开口|没有回答|不回答|不作声|没有作声|不言语|不则声|默然|无言/u.test(
    narration,
  );
  const aside =
    !row.length &&
    (narration.length <= ASIDE_CHARS / 4 || silent) &&
    asideSubject.kind === 'name' &&
    turns.length
      ? asideSubject.name
      : null;
  const salient = { ...exchange.salient };
  for (const r of row) {
    const g = r.speaker && r.speaker !== '我' ? genderOf(r.speaker) : 'unknown';
    if (r.speaker && g !== 'unknown') salient[g] = r.speaker;
  }
  Object.assign(exchange, { turns, context, pending, aside, salient });
  return row;
}

/**
 * The narration naming the minor role who just spoke (一个大汉 … 墨子认识他是自己的学生管黔敖 / 这是自己
 * 的学生曹公子的声音): that role's lines so far, and its turns in the exchange, become the character's.
 */
function nameTheRole(narration: string, names: Set<string>, turns: Exchange['turns']): void {
  for (const clause of narration.split(/[，,。！？!?；;]/u)) {
    const known = /(?:认识|认得)(?:他|她|那人|这人)?是|原来是/u.exec(clause);
    const voice = /[这那]是(.+?)的声音/u.exec(clause);
    let named: string | undefined;
    if (known) named = [...names].find((n) => clause.indexOf(n, known.index) > known.index);
    else if (voice) {
      // The titled name closing the phrase: 自己的学生曹公子 → 曹公子.
      const words = voice[1];
      for (let len = Math.min(5, words.length); len >= 2 && !named; len--) {
        const w = words.slice(-len);
        if (names.has(w) || (TITLED.test(w) && SURNAME.test(w))) named = w;
      }
    }
    const role = turns
      .slice(-2)
      .findLast((t) => t.speaker && t.speaker !== '我' && !names.has(t.speaker))?.speaker;
    if (!named || !role) continue;
    for (const t of turns)
      if (t.speaker === role) {
        t.speaker = named;
        t.said.speaker = named;
      }
  }
}

/**
 * Narration and quotes of each paragraph with their speakers, and the cast. `chapterSizes`: paragraphs
 * per chapter of a book as imported, its chapter breaks (see `quoteSpeakers`).
 */
export function attributeSpeakers(paragraphs: string[], chapterSizes?: number[]): AttributedText {
  const speakers = quoteSpeakers(paragraphs, chapterSizes);
  const result: AttributedText['paragraphs'] = [];
  const counts = new Map<string, number>();
  for (const [i, p] of paragraphs.entries()) {
    const segments: SpeechSegment[] = [];
    let narration = '';
    let at = 0;
    const flush = () => {
      if (/[\p{L}\p{N}]/u.test(narration))
        segments.push({ kind: 'narration', text: narration.trim(), speaker: null });
      narration = '';
    };
    for (const [k, q] of findQuotes(p).entries()) {
      const { speaker, speech } = speakers[i][k];
      if (!speech) {
        narration += p.slice(at, q.end); // a term in quote marks is read as narration, marks kept
        at = q.end;
        continue;
      }
      narration += p.slice(at, q.start);
      flush();
      segments.push({ kind: 'quote', text: q.text, speaker });
      if (speaker) counts.set(speaker, (counts.get(speaker) ?? 0) + 1);
      at = q.end;
    }
    narration += p.slice(at);
    flush();
    result.push({ segments });
  }
  // The cast: speakers that are no person (a verb, a fragment, a cited sage) are read by the narrator.
  const roles = castRoles(counts, paragraphs.map(stripQuotes).join('\n'));
  counts.clear();
  for (const p of result)
    for (const s of p.segments)
      if (s.kind === 'quote' && s.speaker) {
        s.speaker = roles.get(s.speaker) ?? null;
        if (s.speaker) counts.set(s.speaker, (counts.get(s.speaker) ?? 0) + 1);
      }
  const characters: BookCharacter[] = [...counts.entries()]
    .map(([name, lines]) => ({
      name,
      lines,
      gender: name === '我' ? 'unknown' : guessGender(name, paragraphs),
    }))
    .sort((a, b) => b.lines - a.lines || a.name.localeCompare(b.name, 'zh'));
  return { paragraphs: result, characters };
}

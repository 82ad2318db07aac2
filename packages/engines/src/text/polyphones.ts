import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { addDict, convert, pinyin, polyphonic } from 'pinyin-pro';
import type { DictionaryEntry, PinyinReading } from '../book/types.ts';
import { segmenter } from './jieba.ts';

/**
 * Polyphones in context. pinyin-pro's built-in dictionary is small, so its defaults read 还书 as hai2,
 * 说得对 as de2, 有空 as kong1. Readings are chosen in layers, later layers winning:
 *   1. pinyin-pro with the "modern" word dictionary of @pinyin-pro/data;
 *   2. a context model (g2pW, text/g2pw.ts) when one is installed: asked ahead by preparePolyphones,
 *      its reading replaces layers 3–4 except the phrase table and the certain (FIRST) rules;
 *   3. words: the sentence is cut into words by jieba (@node-rs/jieba), and a polyphone inside a word
 *      takes the word's reading — the phrase table below, a long dictionary word, or the word itself.
 *      Phrases and dictionary words only count where they match whole words, so 项目的 is 项目 + 的
 *      (not 目的 dì) and 有空气 is 有 + 空气;
 *   4. a surname at the start of a name jieba finds (朴正熙 Piáo), then per-character context rules for
 *      a polyphone that is a word on its own (还 at the end of a clause, V得 complements, 你得…, 倒
 *      before a verb, 的 particle …);
 *   5. the user's pronunciation dictionary (longest word first), which always wins.
 */

type WordDict = Record<string, [string, number]>;
let WORDS: WordDict = {};

/**
 * The "modern" word list of @pinyin-pro/data (59k words with readings and frequencies), read as JSON
 * (cheaper to load than its JS module) and added to pinyin-pro once.
 */
let loaded = false;
function ensureDictionary(): void {
  if (loaded) return;
  const file = createRequire(import.meta.url).resolve('@pinyin-pro/data/modern.json');
  WORDS = JSON.parse(readFileSync(file, 'utf8')) as WordDict;
  addDict(WORDS as unknown as Parameters<typeof addDict>[0]);
  loaded = true;
}
function isWord(w: string): boolean {
  return w.length > 1 && w in WORDS;
}

/** A word of the sentence: [start, end) in characters (code points) and jieba's part-of-speech tag. */
type Span = [number, number, string];
type Spans = Span[];

/** For each character (code point), the word it belongs to. */
export function wordSpans(text: string): Spans {
  const chars = [...text];
  const spans: Spans = [];
  for (const { word, tag } of segmenter().tag(text, false)) {
    const start = spans.length;
    const end = start + [...word].length;
    for (let i = start; i < end; i++) spans.push([start, end, tag]);
  }
  // jieba keeps every character; should it ever not, each character is its own word.
  if (spans.length !== chars.length) return chars.map((_, i) => [i, i + 1, '']);
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Phrase table: a phrase and the reading of each character ('-' keeps the reading chosen so far).

const PHRASE_LIST: Array<[string, string]> = [
  // 还
  ['还书', 'huan2 -'],
  ['还钱', 'huan2 -'],
  ['还款', 'huan2 -'],
  ['还债', 'huan2 -'],
  ['还账', 'huan2 -'],
  ['还贷', 'huan2 -'],
  ['还清', 'huan2 -'],
  ['还给', 'huan2 -'],
  ['还礼', 'huan2 -'],
  ['还击', 'huan2 -'],
  ['还手', 'huan2 -'],
  ['还嘴', 'huan2 -'],
  ['还乡', 'huan2 -'],
  ['还原', 'huan2 -'],
  ['还俗', 'huan2 -'],
  ['还魂', 'huan2 -'],
  ['还价', 'huan2 -'],
  ['归还', '- huan2'],
  ['偿还', '- huan2'],
  ['退还', '- huan2'],
  ['奉还', '- huan2'],
  ['送还', '- huan2'],
  ['交还', '- huan2'],
  ['生还', '- huan2'],
  ['返还', '- huan2'],
  ['还有', 'hai2 -'],
  ['还是', 'hai2 -'],
  ['还要', 'hai2 -'],
  ['还在', 'hai2 -'],
  ['还没', 'hai2 -'],
  ['还不', 'hai2 -'],
  ['还好', 'hai2 -'],
  ['还得', 'hai2 -'],
  ['还会', 'hai2 -'],
  ['还能', 'hai2 -'],
  ['还想', 'hai2 -'],
  ['还可以', 'hai2 - -'],
  // 得
  ['得到', 'de2 -'],
  ['得知', 'de2 -'],
  ['得了第', 'de2 - -'],
  ['获得', '- de2'],
  ['取得', '- de2'],
  ['赢得', '- de2'],
  ['心得', '- de2'],
  ['难得', '- de2'],
  ['值得', '- de5'],
  ['记得', '- de5'],
  ['觉得', '- de5'],
  ['晓得', '- de5'],
  ['懂得', '- de5'],
  ['免得', '- de5'],
  ['省得', '- de5'],
  ['舍得', '- de5'],
  ['使得', '- de5'],
  ['显得', '- de5'],
  ['不得不', '- de2 -'],
  ['不得了', '- de2 liao3'],
  ['了不得', 'liao3 - de5'],
  // 数
  ['数一数', 'shu3 yi5 shu3'],
  ['数数', 'shu3 shu3'],
  ['数不胜数', 'shu3 - - shu3'],
  ['数钱', 'shu3 -'],
  ['数星星', 'shu3 - -'],
  ['数落', 'shu3 luo5'],
  ['屈指可数', '- - - shu3'],
  ['心里有数', '- - - shu4'],
  ['数学', 'shu4 -'],
  ['数据', 'shu4 -'],
  ['数字', 'shu4 -'],
  ['数量', 'shu4 liang4'],
  ['数次', 'shu4 -'],
  // 空
  ['有空', '- kong4'],
  ['没空', '- kong4'],
  ['抽空', '- kong4'],
  ['得空', '- kong4'],
  ['空儿', 'kong4 -'],
  ['空闲', 'kong4 -'],
  ['空白', 'kong4 -'],
  ['空地', 'kong4 -'],
  ['空隙', 'kong4 -'],
  ['空缺', 'kong4 -'],
  ['填空', '- kong4'],
  ['有空气', '- kong1 -'],
  ['有空间', '- kong1 -'],
  ['有空调', '- kong1 tiao2'],
  ['没空调', '- kong1 tiao2'],
  // 行
  ['银行', '- hang2'],
  ['行业', 'hang2 -'],
  ['行列', 'hang2 -'],
  ['行家', 'hang2 -'],
  ['行情', 'hang2 -'],
  ['同行', '- hang2'],
  ['外行', '- hang2'],
  ['内行', '- hang2'],
  ['排行', '- hang2'],
  ['一行', '- hang2'],
  ['这一行', '- - hang2'],
  ['一目十行', '- - - hang2'],
  ['行人', 'xing2 -'],
  ['行李', 'xing2 -'],
  ['行为', 'xing2 wei2'],
  // 长
  ['长高', 'zhang3 -'],
  ['长大', 'zhang3 -'],
  ['长得', 'zhang3 de5'],
  ['长满', 'zhang3 -'],
  ['长胖', 'zhang3 -'],
  ['长出', 'zhang3 -'],
  ['长相', 'zhang3 xiang4'],
  ['长辈', 'zhang3 -'],
  ['成长', '- zhang3'],
  ['生长', '- zhang3'],
  ['增长', '- zhang3'],
  ['家长', '- zhang3'],
  ['校长', '- zhang3'],
  ['班长', '- zhang3'],
  ['队长', '- zhang3'],
  ['部长', '- zhang3'],
  ['市长', '- zhang3'],
  ['处长', 'chu4 zhang3'],
  ['擅长', '- chang2'],
  ['特长', '- chang2'],
  ['专长', '- chang2'],
  // 重
  ['重新', 'chong2 -'],
  ['重复', 'chong2 -'],
  ['重写', 'chong2 -'],
  ['重做', 'chong2 -'],
  ['重来', 'chong2 -'],
  ['重读', 'chong2 -'],
  ['重播', 'chong2 -'],
  ['重建', 'chong2 -'],
  ['重逢', 'chong2 -'],
  ['重叠', 'chong2 -'],
  ['重庆', 'chong2 -'],
  ['重阳', 'chong2 -'],
  ['重围', 'chong2 -'],
  // 重 again, as software speaks: 重构, 重启, 重置 …
  ['重构', 'chong2 -'],
  ['重启', 'chong2 -'],
  ['重置', 'chong2 -'],
  ['重装', 'chong2 -'],
  ['重试', 'chong2 -'],
  ['重命名', 'chong2 - -'],
  ['重连', 'chong2 -'],
  ['重发', 'chong2 -'],
  ['重排', 'chong2 -'],
  ['重现', 'chong2 -'],
  // X量, an amount: liàng
  ['下载量', '- - liang4'],
  ['访问量', '- - liang4'],
  ['阅读量', '- - liang4'],
  ['播放量', '- - liang4'],
  ['点击量', '- - liang4'],
  ['浏览量', '- - liang4'],
  ['交易量', '- - liang4'],
  ['计算量', '- - liang4'],
  ['吞吐量', '- - liang4'],
  ['调用量', '- diao4 liang4'],
  ['请求量', '- - liang4'],
  ['使用量', '- - liang4'],
  // 为
  ['选为', '- wei2'],
  ['称为', '- wei2'],
  ['改为', '- wei2'],
  ['视为', '- wei2'],
  ['评为', '- wei2'],
  ['成为', '- wei2'],
  ['作为', '- wei2'],
  ['认为', '- wei2'],
  ['以为', '- wei2'],
  ['因为', '- wei4'],
  ['为了', 'wei4 le5'],
  ['为什么', 'wei4 - -'],
  // 着
  ['一着棋', '- zhao1 -'],
  ['这一着', '- - zhao1'],
  ['着急', 'zhao2 -'],
  ['着火', 'zhao2 -'],
  ['着凉', 'zhao2 -'],
  ['着迷', 'zhao2 -'],
  ['睡着', '- zhao2'],
  ['找着', '- zhao2'],
  ['着手', 'zhuo2 -'],
  ['着陆', 'zhuo2 -'],
  ['着想', 'zhuo2 -'],
  ['着重', 'zhuo2 zhong4'],
  ['衣着', '- zhuo2'],
  ['沉着', '- zhuo2'],
  ['执着', '- zhuo2'],
  // 了
  ['了解', 'liao3 -'],
  ['了不起', 'liao3 - -'],
  ['了结', 'liao3 -'],
  ['一目了然', '- - liao3 -'],
  ['不了了之', '- liao3 liao3 -'],
  ['简单明了', '- - - liao3'],
  ['为了', '- le5'],
  ['除了', '- le5'],
  // 地
  ['目的地', '- di4 di4'],
  // 的
  ['打的', '- di1'],
  ['的士', 'di1 -'],
  ['的确', 'di2 -'],
  ['目的', '- di4'],
  ['有的放矢', '- di4 - -'],
  // 和
  ['和面', 'huo2 mian4'],
  ['和泥', 'huo2 -'],
  ['暖和', '- huo5'],
  ['搅和', '- huo5'],
  ['附和', '- he4'],
  ['一唱一和', '- - - he4'],
  ['和牌', 'hu2 -'],
  // 觉
  ['睡觉', '- jiao4'],
  ['午觉', '- jiao4'],
  ['一觉', '- jiao4'],
  ['大觉', '- jiao4'],
  ['好觉', '- jiao4'],
  // 便
  ['便宜', 'pian2 yi5'],
  ['大腹便便', '- - pian2 pian2'],
  // 差
  ['出差', '- chai1'],
  ['差事', 'chai1 shi5'],
  ['邮差', '- chai1'],
  ['差不多', 'cha4 - -'],
  ['差一点', 'cha4 - -'],
  ['差点', 'cha4 -'],
  ['参差', 'cen1 ci1'],
  ['误差', '- cha1'],
  ['时差', '- cha1'],
  ['差别', 'cha1 -'],
  ['差距', 'cha1 -'],
  ['差异', 'cha1 -'],
  // 调
  ['调到', 'diao4 -'],
  ['调往', 'diao4 -'],
  ['调任', 'diao4 -'],
  ['调动', 'diao4 -'],
  ['调查', 'diao4 -'],
  ['跑调', '- diao4'],
  ['走调', '- diao4'],
  ['声调', '- diao4'],
  ['单调', '- diao4'],
  ['语调', '- diao4'],
  ['调皮', 'tiao2 pi2'],
  ['空调', 'kong1 tiao2'],
  ['调整', 'tiao2 -'],
  ['调小', 'tiao2 -'],
  ['调大', 'tiao2 -'],
  ['调高', 'tiao2 -'],
  ['调低', 'tiao2 -'],
  ['协调', '- tiao2'],
  // 传
  ['自传', '- zhuan4'],
  ['传记', 'zhuan4 -'],
  ['水浒传', '- - zhuan4'],
  ['外传', '- zhuan4'],
  ['列传', '- zhuan4'],
  // 当
  ['上当', '- dang4'],
  ['恰当', '- dang4'],
  ['适当', '- dang4'],
  ['妥当', '- dang5'],
  ['当铺', 'dang4 -'],
  ['当作', 'dang4 -'],
  ['当成', 'dang4 -'],
  ['当真', 'dang4 -'],
  ['拿去当', '- - dang4'],
  // 便当 "convenient" (既便当，又可靠) has a neutral 当 in 现代汉语词典
  ['便当', 'bian4 dang5'],
  ['应当', 'ying1 dang1'],
  // 好
  ['爱好', '- hao4'],
  ['好奇', 'hao4 -'],
  ['好客', 'hao4 -'],
  ['好学', 'hao4 -'],
  ['好面子', 'hao4 - -'],
  ['好吃懒做', 'hao4 - - -'],
  ['好逸恶劳', 'hao4 - wu4 -'],
  ['好大喜功', 'hao4 - - -'],
  ['好为人师', 'hao4 wei2 - -'],
  ['嗜好', '- hao4'],
  // 降
  ['投降', '- xiang2'],
  ['降服', 'xiang2 fu2'],
  ['降龙伏虎', 'xiang2 - - -'],
  ['下降', '- jiang4'],
  ['降落', 'jiang4 luo4'],
  ['降低', 'jiang4 -'],
  // 角
  ['主角', '- jue2'],
  ['配角', '- jue2'],
  ['角色', 'jue2 se4'],
  ['角逐', 'jue2 -'],
  ['丑角', '- jue2'],
  // 看
  ['看门', 'kan1 -'],
  ['看守', 'kan1 -'],
  ['看护', 'kan1 -'],
  ['看管', 'kan1 -'],
  ['看家', 'kan1 -'],
  ['看孩子', 'kan1 - -'],
  // 没
  ['淹没', '- mo4'],
  ['没收', 'mo4 -'],
  ['出没', '- mo4'],
  ['埋没', '- mo4'],
  ['沉没', '- mo4'],
  ['吞没', '- mo4'],
  // 弹
  ['子弹', '- dan4'],
  ['炸弹', '- dan4'],
  ['导弹', '- dan4'],
  ['弹药', 'dan4 -'],
  ['弹琴', 'tan2 -'],
  ['弹钢琴', 'tan2 - -'],
  ['弹吉他', 'tan2 - -'],
  ['弹性', 'tan2 -'],
  // 少
  ['少年', 'shao4 -'],
  ['少女', 'shao4 -'],
  ['少爷', 'shao4 ye5'],
  ['少先队', 'shao4 - -'],
  ['少妇', 'shao4 -'],
  // 种
  ['种树', 'zhong4 -'],
  ['种地', 'zhong4 di4'],
  ['种田', 'zhong4 -'],
  ['种菜', 'zhong4 -'],
  ['种花', 'zhong4 -'],
  ['种植', 'zhong4 -'],
  ['耕种', '- zhong4'],
  ['种子', 'zhong3 zi5'],
  ['种类', 'zhong3 -'],
  ['物种', '- zhong3'],
  ['各种', '- zhong3'],
  // 中
  ['中奖', 'zhong4 -'],
  ['中毒', 'zhong4 -'],
  ['中暑', 'zhong4 -'],
  ['中弹', 'zhong4 dan4'],
  ['中了', 'zhong4 le5'],
  ['打中', '- zhong4'],
  ['击中', '- zhong4'],
  ['射中', '- zhong4'],
  ['命中', '- zhong4'],
  ['看中', '- zhong4'],
  ['考中', '- zhong4'],
  ['猜中', '- zhong4'],
  ['选中', '- zhong4'],
  ['说中', '- zhong4'],
  ['百发百中', '- - - zhong4'],
  ['心中', '- zhong1'],
  // 应
  ['应该', 'ying1 -'],
  ['应当', 'ying1 dang1'],
  ['理应', '- ying1'],
  ['答应', 'da1 ying5'],
  ['反应', '- ying4'],
  ['适应', '- ying4'],
  ['应用', 'ying4 -'],
  ['应聘', 'ying4 -'],
  ['里应外合', '- ying4 - -'],
  // 朝
  ['朝阳', 'zhao1 -'],
  ['朝霞', 'zhao1 -'],
  ['朝气', 'zhao1 -'],
  ['一朝一夕', '- zhao1 - -'],
  ['朝三暮四', 'zhao1 - - -'],
  ['朝代', 'chao2 -'],
  ['唐朝', '- chao2'],
  ['面朝', '- chao2'],
  // 背
  ['背书包', 'bei1 - -'],
  ['背孩子', 'bei1 - -'],
  ['背负', 'bei1 -'],
  ['背包', 'bei1 -'],
  ['背诵', 'bei4 -'],
  ['背景', 'bei4 -'],
  ['背叛', 'bei4 -'],
  ['背影', 'bei4 -'],
  ['背课文', 'bei4 - -'],
  ['后背', '- bei4'],
  // 处
  ['处理', 'chu3 li3'],
  ['相处', '- chu3'],
  ['处分', 'chu3 fen4'],
  ['处境', 'chu3 -'],
  ['处于', 'chu3 -'],
  ['好处', '- chu4'],
  ['到处', '- chu4'],
  ['住处', '- chu4'],
  ['处处', 'chu4 chu4'],
  // 教
  ['教书', 'jiao1 -'],
  ['教育', 'jiao4 -'],
  ['教室', 'jiao4 -'],
  ['教师', 'jiao4 -'],
  ['请教', '- jiao4'],
  ['宗教', '- jiao4'],
  ['教学', 'jiao4 -'],
  // 假
  ['放假', '- jia4'],
  ['暑假', '- jia4'],
  ['寒假', '- jia4'],
  ['请假', '- jia4'],
  ['假期', 'jia4 -'],
  ['休假', '- jia4'],
  ['假装', 'jia3 -'],
  ['假如', 'jia3 -'],
  // 间
  ['间隔', 'jian4 -'],
  ['离间', '- jian4'],
  ['间谍', 'jian4 -'],
  ['间接', 'jian4 -'],
  ['间苗', 'jian4 -'],
  ['间断', 'jian4 -'],
  // 将
  ['大将', '- jiang4'],
  ['麻将', '- jiang4'],
  ['武将', '- jiang4'],
  ['将领', 'jiang4 -'],
  ['将士', 'jiang4 -'],
  ['将军', 'jiang1 -'],
  ['将来', 'jiang1 -'],
  ['即将', '- jiang1'],
  ['将近', 'jiang1 -'],
  // 更
  ['更新', 'geng1 -'],
  ['变更', '- geng1'],
  ['更换', 'geng1 -'],
  ['更正', 'geng1 -'],
  ['更改', 'geng1 -'],
  ['打更', '- geng1'],
  ['更加', 'geng4 -'],
  // 干
  ['干活', 'gan4 -'],
  ['干部', 'gan4 -'],
  ['能干', '- gan4'],
  ['干什么', 'gan4 - -'],
  ['干嘛', 'gan4 -'],
  ['饼干', '- gan1'],
  ['干净', 'gan1 -'],
  ['干燥', 'gan1 -'],
  ['无干', '- gan1'],
  ['干了', '- le5'],
  // others
  ['头发', '- fa5'],
  ['理发', '- fa4'],
  ['西藏', '- zang4'],
  ['宝藏', '- zang4'],
  // Modern text (news, encyclopaedias) the word list lacks: Tibet in compounds (青藏铁路, 驻藏大臣,
  // 藏军) and the bodhisattva 地藏 are zàng; 朝鲜 is Cháoxiǎn; 全长 (whole length) cháng; 调入 (moved
  // to a post) and 调性 (a key in music) diào; 刘少奇 shào.
  ['青藏', '- zang4'],
  ['川藏', '- zang4'],
  ['滇藏', '- zang4'],
  ['驻藏', '- zang4'],
  ['入藏', '- zang4'],
  ['进藏', '- zang4'],
  ['援藏', '- zang4'],
  ['藏军', 'zang4 -'],
  ['藏人', 'zang4 -'],
  ['地藏', '- zang4'],
  ['朝鲜', 'chao2 xian3'],
  ['全长', '- chang2'],
  ['调入', 'diao4 -'],
  ['调性', 'diao4 -'],
  ['刘少奇', '- shao4 -'],
  // Terms of architecture, medicine, cooking and computing the word list lacks: 攒尖 (a pyramidal
  // roof) cuán, 咽部/咽痛 (the pharynx) yān, 撇去/撇清 (skim off, clear oneself) piē, 扇区 (a disk
  // sector) and 扇状 shàn, 削籍/削除 (struck off, written style) xuē; 德累斯顿 (Dresden) Léi.
  ['攒尖', 'cuan2 -'],
  ['攒尖顶', 'cuan2 - -'],
  ['咽部', 'yan1 -'],
  ['咽痛', 'yan1 -'],
  ['撇去', 'pie1 -'],
  ['撇清', 'pie1 -'],
  ['扇区', 'shan4 -'],
  ['扇状', 'shan4 -'],
  ['削籍', 'xue1 -'],
  ['削除', 'xue1 -'],
  ['德累斯顿', '- lei2 - -'],
  // 燕 the state and its dynasties (燕王, 前燕, 南燕) is Yān; the swallow is yàn.
  ['燕王', 'yan1 -'],
  ['燕国', 'yan1 -'],
  ['前燕', '- yan1'],
  ['后燕', '- yan1'],
  ['南燕', '- yan1'],
  ['北燕', '- yan1'],
  ['西燕', '- yan1'],
  ['人参', '- shen1'],
  ['卡在', 'qia3 -'],
  ['卡住', 'qia3 -'],
  ['关卡', '- qia3'],
  ['反省', '- xing3'],
  ['不省人事', '- xing3 - -'],
  ['恶心', 'e3 xin5'],
  ['可恶', '- wu4'],
  ['给予', 'ji3 yu3'],
  ['自给自足', '- ji3 - -'],
  ['会计', 'kuai4 ji4'],
  ['折腾', 'zhe1 teng5'],
  ['折本', 'she2 -'],
  ['系好', 'ji4 -'],
  ['系紧', 'ji4 -'],
  ['系上', 'ji4 -'],
  ['系鞋带', 'ji4 - -'],
  ['系领带', 'ji4 - -'],
  ['划船', 'hua2 -'],
  ['困难', '- nan5'],
  ['灾难', '- nan4'],
  ['倒水', 'dao4 -'],
  ['倒茶', 'dao4 -'],
  ['倒酒', 'dao4 -'],
  ['倒一杯', 'dao4 - -'],
  ['摔倒', '- dao3'],
  ['丢三落四', '- - la4 -'],
  ['挣钱', 'zheng4 -'],
  ['挣扎', 'zheng1 zha2'],
  ['缝衣服', 'feng2 - -'],
  ['缝补', 'feng2 -'],
  ['门缝', '- feng4'],
  ['似的', 'shi4 de5'],
  ['扇风', 'shan1 -'],
  ['下载', '- zai3'],
  ['转载', '- zai3'],
  ['记载', '- zai3'],
  ['转个', 'zhuan4 -'],
  ['转圈', 'zhuan4 -'],
  ['转身', 'zhuan3 -'],
  ['当天', 'dang4 -'],
  ['大夫', 'dai4 fu5'],
  ['奇数', 'ji1 shu4'],
  ['薄荷', 'bo4 he5'],
  ['血淋淋', 'xie3 lin2 lin2'],
  ['露面', 'lou4 -'],
  ['露脸', 'lou4 -'],
  ['模样', 'mu2 yang4'],
  // 长 zhǎng: senior by age or generation (长辈, 家长 and 族长 are dictionary words)
  ['年长', '- zhang3'],
  ['长者', 'zhang3 -'],
  ['长一辈', 'zhang3 - -'],
  ['一觉醒来', '- jiao4 - -'],
  // 只得 "have to" is zhǐdé, not the modal děi
  ['只得', '- de2'],
  ['遇着', '- zhao2'],
  ['深恶', '- wu4'],
  ['不足数', '- - shu3'],
  ['折了本', 'she2 - -'],
  ['尽可', 'jin3 -'],
  ['尽可能', 'jin3 - -'],
  ['尽可以', 'jin3 - -'],
  // verbs: 挨 ái (suffer), 切 qiē (cut), 钻 zuān (squeeze in), 载 zài (carry)
  ['切细', 'qie1 -'],
  ['切开', 'qie1 -'],
  ['切碎', 'qie1 -'],
  ['切成', 'qie1 -'],
  ['切菜', 'qie1 -'],
  ['乱钻', '- zuan1'],
  ['钻进', 'zuan1 -'],
  ['钻出', 'zuan1 -'],
  ['装载', '- zai4'],
  ['烟卷', '- juan3'],
  ['喝不住', 'he4 - -'],
  ['薄待', 'bo2 -'],
  // 薄 in written compounds is bó (薄田 poor land, 薄霭/薄雾 thin mist); báo is the plain adjective.
  ['薄田', 'bo2 -'],
  ['薄霭', 'bo2 -'],
  ['薄雾', 'bo2 -'],
  // 长房 is the eldest branch of a family (zhǎng), like 长子 and 长孙.
  ['长房', 'zhang3 -'],
  // 为人 (one's conduct, 其为人谦恭) is wéirén; 为人民 keeps wèi, 人民 being a word.
  ['为人', 'wei2 -'],
  // 见着, 猜着: the result complement zháo (met, guessed right), like 遇着.
  ['见着', '- zhao2'],
  ['猜着', '- zhao2'],
  // 缝穷 (mending for the poor) and 调兵 (dispatch troops) are verbs: féng, diào.
  ['缝穷', 'feng2 -'],
  ['调兵', 'diao4 -'],
  // 大将军 is a title (jiāngjūn), not 大将 + 军.
  ['大将军', '- jiang1 -'],
  // 载道 (carry the Way, 文以载道) is zài; 横是 (Beijing: probably) hèng; 副将 a general (jiàng);
  // 披发 (loose hair) fà; 张角 the rebel leader's name, Zhāng Jué.
  ['载道', 'zai4 -'],
  ['横是', 'heng4 -'],
  ['副将', '- jiang4'],
  ['披发', '- fa4'],
  ['张角', '- jue2'],
  // 幻相 (an illusory appearance) is xiàng, like 真相.
  ['幻相', '- xiang4'],
  // 无所为 (do nothing), 不足为奇 / 毫不为奇 (nothing strange): wéi.
  ['无所为', '- - wei2'],
  ['无所不为', '- - - wei2'],
  ['不为奇', '- wei2 -'],
  ['足为奇', '- wei2 -'],
  // 干这行, 这行儿: a trade, háng.
  ['干这行', '- - hang2'],
  ['干那行', '- - hang2'],
  ['强装', 'qiang3 -'],
  ['强笑', 'qiang3 -'],
  ['曲曲折折', 'qu1 qu1 zhe2 zhe2'],
  ['闷葫芦', 'men4 - -'],
  ['闷胡卢', 'men4 - -'],
  // X为 "become, be taken as": wéi
  ['定为', '- wei2'],
  ['分为', '- wei2'],
  ['列为', '- wei2'],
  ['化为', '- wei2'],
  ['变为', '- wei2'],
  ['名为', '- wei2'],
  ['题为', '- wei2'],
  ['号为', '- wei2'],
  ['呼为', '- wei2'],
  ['封为', '- wei2'],
  ['沦为', '- wei2'],
  ['誉为', '- wei2'],
  ['以供', '- gong1'],
  ['供人', 'gong1 -'],
  ['吆喝', '- he5'],
  ['铺地锦', 'pu1 - -'],
  ['科斗', '- dou3'],
  // 科斗子 (tadpoles): the phrase holds 斗子 too.
  ['科斗子', '- dou3 -'],
  ['辟易', 'bi4 -'],
  ['划桨', 'hua2 -'],
  ['重行', 'chong2 -'],
  ['攒成', 'cuan2 -'],
  ['朝花夕拾', 'zhao1 - - -'],
  ['朝食', 'zhao1 -'],
  ['睡相', '- xiang4'],
  ['要数', '- shu3'],
  ['辟头', 'pi1 -'],
  ['连累', '- lei3'],
  ['家将', '- jiang4'],
  ['出闷气', '- men4 -'],
  ['释闷', '- men4'],
  ['空担', '- dan4'],
  ['倒不如', 'dao4 - -'],
  ['重又', 'chong2 -'],
  ['不安分', '- - fen4'],
  ['背着手', 'bei4 - -'],
  ['斗大', 'dou3 -'],
  ['金创', '- chuang1'],
  ['种种', 'zhong3 zhong3'],
  ['断种', '- zhong3'],
  ['罢了', '- le5'],
  ['累坠', 'lei2 -'],
  ['累赘', 'lei2 -'],
  ['重加', 'chong2 -'],
  ['满载', '- zai4'],
  // 角儿 (a role, a fellow) is juér; 墙角儿 keeps the word 墙角.
  ['角儿', 'jue2 -'],
  ['相验', 'xiang4 -'],
  // Court titles: 少师, 少傅, 少保 (the junior tutor…) are shào.
  ['少师', 'shao4 -'],
  ['少傅', 'shao4 -'],
  ['少保', 'shao4 -'],
  ['差等', 'cha1 -'],
  // 葛 the plant is gé (采葛, 葛布); gě is the surname.
  ['采葛', '- ge2'],
  ['葛布', 'ge2 -'],
  // 重台 (a double flower) is chóng; 苍术, 白术 (the herb) is zhú.
  ['重台', 'chong2 -'],
  ['苍术', '- zhu2'],
  ['白术', '- zhu2'],
  // Words jieba cuts whole that the reading dictionary lacks, each in 现代汉语词典 or jieba's own
  // list: 闷得慌 (bored, mèn; 闷热 is mēn), 降魔/降妖 (subdue, xiáng), 爪哇 (Java, Zhǎowā, 爪洼 in
  // older texts), 只当 (take for, zhǐdàng), 所得 (what one gets, suǒdé), 相府 (the premier's house,
  // xiàng), 少帝 (the boy emperor, shào).
  ['闷得慌', 'men4 - -'],
  ['降魔', 'xiang2 -'],
  ['降妖', 'xiang2 -'],
  ['爪哇', 'zhao3 -'],
  ['爪洼', 'zhao3 -'],
  ['只当', '- dang4'],
  ['所得', '- de2'],
  ['相府', 'xiang4 -'],
  ['少帝', 'shao4 -'],
  // 束发 (tied-up hair, shùfà), 抹额 (a headband, mò'é), 扎挣 (struggle, zhāzheng), 强嘴 (talk back,
  // jiàngzuǐ): 现代汉语词典 words the word list lacks.
  ['束发', '- fa4'],
  ['抹额', 'mo4 -'],
  ['扎挣', 'zha1 zheng5'],
  ['强嘴', 'jiang4 -'],
];

const PHRASES = new Map<string, string[]>(PHRASE_LIST.map(([w, r]) => [w, r.split(' ')]));
const MAX_PHRASE = Math.max(...PHRASE_LIST.map(([w]) => w.length));

/**
 * Whether chars [s, e) may be read as one phrase: it must not cut through a dictionary word (项目的 is
 * not 目的) or a place or body jieba names (朝阳门外 is not 朝阳 zhāoyáng), though it may cut another jieba word
 * the dictionary does not know (欠债还钱 holds 还钱).
 */
const NAME = /^(ns|nt)$/;
function aligned(chars: string[], spans: Spans, s: number, e: number): boolean {
  const cuts = (w: Span) => isWord(chars.slice(w[0], w[1]).join('')) || NAME.test(w[2]);
  return (spans[s][0] === s || !cuts(spans[s])) && (spans[e - 1][1] === e || !cuts(spans[e - 1]));
}

/** The longest phrase of the table covering i (not cutting through a word) and i's reading in it. */
function tablePhrase(chars: string[], i: number, spans: Spans): { len: number; reading: string } | undefined {
  for (let len = Math.min(MAX_PHRASE, chars.length); len >= 2; len--) {
    for (let s = Math.max(0, i - len + 1); s <= i && s + len <= chars.length; s++) {
      const r = PHRASES.get(chars.slice(s, s + len).join(''));
      if (r && r[i - s] !== '-' && aligned(chars, spans, s, s + len)) return { len, reading: r[i - s] };
    }
  }
  return undefined;
}
const tableReading = (chars: string[], i: number, spans: Spans) => tablePhrase(chars, i, spans)?.reading;

/**
 * The reading of the phrase covering i: the longer of the table phrase and the dictionary word (three
 * characters or more), neither cutting through a word.
 * 长篇小说 beats the 部长 of 一部长篇小说; a tie goes to the table.
 */
function wordReading(chars: string[], i: number, spans: Spans): string | undefined {
  const best = tablePhrase(chars, i, spans);
  for (let len = 6; len >= 3 && len > (best?.len ?? 0); len--) {
    for (let s = Math.max(0, i - len + 1); s <= i && s + len <= chars.length; s++) {
      const reading = dictionaryReading(chars, s, s + len, i);
      if (reading && aligned(chars, spans, s, s + len)) return reading;
    }
  }
  return best?.reading;
}

/**
 * The dictionary reading of the jieba word holding i (two characters or more). A word jieba knows but
 * the dictionary lacks (a name or a body: 美国长老会) is read through the longest dictionary word
 * inside it that holds i (长老), pinyin-pro reading such a word character by character.
 */
function segmentReading(chars: string[], i: number, spans: Spans): string | undefined {
  const [s, e] = spans[i];
  if (e - s < 2) return undefined;
  for (let len = e - s; len >= 2; len--)
    for (let k = Math.max(s, i - len + 1); k <= i && k + len <= e; k++) {
      const reading = dictionaryReading(chars, k, k + len, i);
      if (reading) return reading;
    }
  return undefined;
}

/** The reading of character i in the dictionary word chars[s, e), if that is a word. */
function dictionaryReading(chars: string[], s: number, e: number, i: number): string | undefined {
  const entry = WORDS[chars.slice(s, e).join('')];
  const syllables = entry?.[0].split(' ');
  return syllables?.length === e - s ? numbered(syllables[i - s]) : undefined;
}

/**
 * Surnames read otherwise than the character (现代汉语词典): 朴正熙 Piáo, 肖 Xiāo, 单 Shàn, 解 Xiè …
 * — at the start of a person's name jieba finds (tags nr…) that the dictionary does not know as a word.
 */
const SURNAMES: Record<string, string> = {
  朴: 'piao2',
  肖: 'xiao1',
  覃: 'qin2',
  牟: 'mou2',
  单: 'shan4',
  解: 'xie4',
  区: 'ou1',
  仇: 'qiu2',
  查: 'zha1',
  曾: 'zeng1',
  盖: 'ge3',
  繁: 'po2',
  燕: 'yan1',
  阙: 'que1',
  尉: 'wei4',
};
function surnameReading(chars: string[], i: number, spans: Spans): string | undefined {
  const [s, e, tag] = spans[i];
  const reading = SURNAMES[chars[i]];
  const name = e - s >= 2 || HAN.test(at(chars, i + 1)); // 朴正熙, or 覃 cut off from its given name
  return reading && s === i && name && tag.startsWith('nr') && !isWord(chars.slice(s, e).join(''))
    ? reading
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Context rules, for what a phrase table cannot list. FIRST rules are certain enough to beat the
// phrase table (这种花 is not 种花); RULES apply where no phrase or long word covers the character.

const HAN = /\p{Script=Han}/u;
const PRONOUN = new Set([...'你我他她它们咱']);
const MODAL_BEFORE_DEI = new Set([...'你我他她它们咱就也都还总必又才倒可非事准只天须']);
// 得 followed by these starts a dé word or a "got" sentence: 他得了第一, 得到, 得知.
const DE2_AFTER = new Set([...'到知出罪手分奖意逞病益救胜势宠体失力空闲过以']);
const END = new Set([...'。，、；：？！…）」』”’"\'.,;:?!) \n']);
const ADVERBIAL = new Set(
  '高兴 认真 飞快 慢慢 悄悄 轻轻 静静 默默 大声 小声 努力 仔细 耐心 热情 紧紧 渐渐 深深 不断 逐渐 迅速 愉快 激动 兴奋 好奇 狠狠 轻声 缓缓 微微 淡淡 冷冷 得意 疑惑 惊讶 生气 平静 温柔 无奈 满意 骄傲 自豪 坚定 大步 快速 用力 拼命 痛快 小心 轻易 偷偷 慢吞吞 急忙 匆匆 高声 低声 开心 伤心 难过 热烈 顺利 稳稳 牢牢 远远 早早 好好 清楚 明显 主动 积极 自动 彻底 完全 不停 冷静'.split(
    ' ',
  ),
);
const SPEECH_VERB = new Set([...'说道问喊叫笑答哭看走跑点望想回']);

type Rule = (chars: string[], i: number, spans: Spans) => string | undefined;

/** Directional complements after a verb (拿出来, 送过去). */
const DIRECTION = new Set('出来 出去 进来 进去 过来 过去 回来 回去 上来 上去 下来 下去 起来 开来'.split(' '));
const DEMONSTRATIVE = new Set([...'这那哪每各某一两几多此该本']);
const NUMERAL = /^[0-9一二两三四五六七八九十百千万几]$/u;

/** The characters after i up to the end of its clause. */
function clauseAfter(c: string[], i: number): string {
  let k = i + 1;
  while (!isEnd(c, k)) k++;
  return c.slice(i + 1, k).join('');
}

function clauseBefore(c: string[], i: number): string {
  const before = c.slice(0, i).join('');
  const cut = Math.max(...[...'，。！？；'].map((p) => before.lastIndexOf(p)));
  return before.slice(cut + 1);
}

const FIRST: Record<string, Rule> = {
  // 分外地, 格外地: the particle after the adverb, not the 外地 (elsewhere) pinyin-pro finds.
  地: (c, i) => (['分外', '格外'].includes(c.slice(i - 2, i).join('')) ? 'de5' : undefined),
  // 分外 (especially) before what it qualifies is fènwài, even where jieba reads 得分 (跑得分外高兴).
  分: (c, i) => (at(c, i + 1) === '外' && !'国面边地'.includes(at(c, i + 2)) ? 'fen4' : undefined),
  // 大都 (mostly) before a verb or adverb is dàdōu; the capital 大都 is a name.
  都: (c, i, spans) =>
    at(c, i - 1) === '大' && !'市会'.includes(at(c, i + 1)) && /^(d|v|p|c|a)/.test(spans[i + 1]?.[2] ?? '')
      ? 'dou1'
      : undefined,
  // 将 + a noun ending in 子/儿 is the preposition (将领子扯掉), even where jieba reads 将领 (a general).
  将: (c, i) =>
    isWord(c.slice(i + 1, i + 3).join('')) && '子儿'.includes(at(c, i + 2)) ? 'jiang1' : undefined,
  行: (c, i, spans) => {
    // 同行 after an adverb is travelling together (我们便同行, 一同同行): xíng, not the trade.
    if (at(c, i - 1) === '同' && spans[i - 2]?.[2] === 'd') return 'xing2';
    // 行儿 is a trade or a row (这行儿, 一行儿): háng.
    return at(c, i + 1) === '儿' ? 'hang2' : undefined;
  },
  // 好得多, 难得多 (much more): the complement 得, even where 难得 is a word.
  得: (c, i) =>
    (c[i + 1] === '多' && (isEnd(c, i + 2) || '了的'.includes(c[i + 2]))) ||
    (c[i + 1] === '分' && c[i + 2] === '外')
      ? 'de5'
      : undefined,
  // 好好学习, 好好想想: reduplicated 好 is hǎo.
  好: (c, i) => (c[i + 1] === '好' || c[i - 1] === '好' ? 'hao3' : undefined),
  // 这种花, 一种方法 (kind) — 种 after a demonstrative or numeral is zhǒng.
  种: (c, i) =>
    DEMONSTRATIVE.has(c[i - 1] ?? '') ||
    NUMERAL.test(c[i - 1] ?? '') ||
    // 有种特别的诱力 (有一种): the kind, unless what is planted follows (有种地的).
    (c[i - 1] === '有' && !'地田菜树花草粮庄'.includes(at(c, i + 1)))
      ? 'zhong3'
      : undefined,
  // V着 + 一件/两个…: the aspect particle.
  着: (c, i) => {
    if (/[一两件个条双只把]/.test(c[i + 1] ?? '') && HAN.test(c[i - 1] ?? '')) return 'zhe5';
    // 垂着手, 背着手: a verb holding the hands, not 着手 (set about).
    // …and 点着头, 歪着嘴: a verb held with a part of the body.
    return (c[i + 1] === '手' && '垂背拉握牵搓拍摇挥插抄拱扶甩'.includes(c[i - 1] ?? '\0')) ||
      ('头脚腰眼嘴脸身腿'.includes(c[i + 1] ?? '\0') &&
        '点摇低歪抬垂仰侧眯睁瞪咬张撅挺弯扭探'.includes(c[i - 1] ?? '\0'))
      ? 'zhe5'
      : undefined;
  },
};

// Out of range is '\0', never '', which every string `includes`.
const at = (chars: string[], i: number) => chars[i] ?? '\0';
/** The jieba word starting at k ('' past the end). */
const wordAt = (chars: string[], spans: Spans, k: number) =>
  k < chars.length ? chars.slice(spans[k][0], spans[k][1]).join('') : '';
const isEnd = (chars: string[], i: number) => i >= chars.length || END.has(chars[i]);
const wordAround = (chars: string[], i: number) =>
  isWord(chars.slice(i, i + 2).join('')) || isWord(chars.slice(i - 1, i + 1).join(''));

const RULES: Record<string, Rule> = {
  // 尽 jǐn, the adverb "keep on, all along", on its own before a verb (尽说, 尽有); jìn (use up) takes
  // 了/力/到 or is in a word (尽力, 尽头).
  尽: (c, i, spans) => {
    // 尽是 (all, nothing but) is jìn; so is 难尽述, 未尽言 (cannot tell it all).
    if (at(c, i + 1) === '是' && spans[i][1] === i + 1) return 'jin4';
    if ('难未'.includes(at(c, i - 1)) && spans[i + 1]?.[2].startsWith('v')) return 'jin4';
    // 尽在那里踱步: jǐn, keeping on at something there (尽在不言中, a dictionary idiom, stays jìn).
    if (
      at(c, i + 1) === '在' &&
      (['那里', '这里', '那儿', '这儿'].includes(c.slice(i + 2, i + 4).join('')) ||
        spans[i + 2]?.[2].startsWith('v'))
    )
      return 'jin3';
    // 尽 + verb where the clause is written in the literary register (欲尽诛之, 尽率精锐之众): "all",
    // jìn; 之 only belongs to that register, where jǐn (keep on) does not occur.
    if (spans[i][1] === i + 1 && spans[i + 1]?.[2].startsWith('v') && clauseAfter(c, i).includes('之'))
      return 'jin4';
    return spans[i][1] - spans[i][0] === 1 &&
      spans[i + 1]?.[2].startsWith('v') &&
      !'了到力心'.includes(at(c, i + 1))
      ? 'jin3'
      : undefined;
  },
  // 更 on its own before what it compares (更生气) is gèng, not the 更生 (rebirth) found across words;
  // 二更, 三更, 五更 are night watches (gēng): "more" never follows a numeral (一更 may be 一 + 更好).
  更: (c, i, spans) => {
    if ('二三四五'.includes(at(c, i - 1)) && !wordAround(c, i)) return 'geng1';
    return spans[i][0] === i && spans[i][1] === i + 1 && spans[i][2] === 'd' && !NUMERAL.test(at(c, i - 1))
      ? 'geng4'
      : undefined;
  },
  // 奔 bèn, heading for a place or a person: 向北奔梨香院来, 奔城里去, 奔了她屋里去, 杀奔汜水关来 —
  // whatever jieba makes of the place, as long as it is no verb, adverb or preposition (奔出去,
  // running out, is bēn).
  奔: (c, i, spans) => {
    const place = at(c, i + 1) === '了' ? spans[i + 2] : spans[i + 1];
    if (
      wordAround(c, i) ||
      !place ||
      /^(v|d|p|u|x)/.test(place[2]) ||
      DIRECTION.has(c.slice(place[0], place[1]).join(''))
    )
      return undefined;
    // …or a place jieba names closing the clause (禹城奔济南。).
    if (place[2] === 'ns' && isEnd(c, place[1])) return 'ben4';
    let k = i + 1;
    while (!isEnd(c, k + 1)) k++;
    return '来去'.includes(at(c, k)) ? 'ben4' : undefined;
  },
  // 予 yú, the classical "I", as the subject heading a clause (今予发); yǔ (give) lives in words
  // (给予, 授予) and takes a person (予子宋).
  予: (c, i, spans) =>
    !wordAround(c, i) &&
    (i === 0 || END.has(at(c, i - 1)) || '今故乃而“‘'.includes(at(c, i - 1))) &&
    !/^[nr]/.test(spans[i + 1]?.[2] ?? '') &&
    !'子汝尔你我他'.includes(at(c, i + 1))
      ? 'yu2'
      : undefined,
  // 划 huá, rowing and striking (红划楫, 划火柴, 划破), before a boat, an oar, a match or a result;
  // huà (mark off, plan) is in words (计划, 划分) and before what is drawn (划字).
  划: (c, i) => (!wordAround(c, i) && '船桨楫水火着开破伤'.includes(at(c, i + 1)) ? 'hua2' : undefined),
  // 栅 is zhà (fence, railings) everywhere but the electronics word 栅极.
  栅: (c, i) => (at(c, i + 1) === '极' ? undefined : 'zha4'),
  // 间 jiàn (now and then) as the adverb heading a clause before another adverb: 间亦有.
  间: (c, i, spans) =>
    (i === 0 || END.has(at(c, i - 1))) && spans[i][1] === i + 1 && spans[i + 1]?.[2] === 'd'
      ? 'jian4'
      : undefined,
  // 所差 (what is lacking), 之差 (the difference between): the noun after a nominaliser is chā.
  差: (c, i, spans) => {
    if ('所之'.includes(at(c, i - 1))) return 'cha1';
    // 差 (公)人 + a verb: sending someone on an errand, chāi (便发签差公人立刻将凶犯拿来).
    const person = spans[i + 1];
    if (
      spans[i][1] !== i + 1 ||
      !person ||
      !['人', '公人', '役'].includes(c.slice(person[0], person[1]).join(''))
    )
      return undefined;
    return /^(v|d)/.test(spans[person[1]]?.[2] ?? '') ? 'chai1' : undefined;
  },
  // 少 shào (young) set against 老: 老的，少的.
  少: (c, i) =>
    at(c, i + 1) === '的' &&
    clauseBefore(c, i - 2)
      .concat(at(c, i - 2))
      .includes('老')
      ? 'shao4'
      : undefined,
  // 一转 closing a clause is a round, a stroll (去一转): zhuàn.
  转: (c, i) => {
    if (at(c, i - 1) === '一' && isEnd(c, i + 1)) return 'zhuan4';
    // 转着眼珠, 转眼珠: eyes roll round, zhuàn (转眼, a moment, is the word zhuǎnyǎn).
    if (/^[着了]?眼珠/u.test(c.slice(i + 1, i + 4).join(''))) return 'zhuan4';
    // V着转 (抽着转的陀螺, 围着他转了): spinning or going round, zhuàn.
    return at(c, i - 1) === '着' && (isEnd(c, i + 1) || '的了个圈起'.includes(at(c, i + 1)))
      ? 'zhuan4'
      : undefined;
  },
  // 晕 yùn, a halo spreading or tinting (反晕出一片, 晕开, 白而晕黄); yūn (faint, dizzy) elsewhere.
  晕: (c, i) => ('开出染黄红白青紫绿蓝'.includes(at(c, i + 1)) ? 'yun4' : undefined),
  // 都中 after a verb or preposition (转向都中去, 打听得都中) is the capital, dū; 都中了 stays dōu.
  // …and 还都 closing a clause (请陛下还都) is returning to the capital: the adverb 都 never ends one.
  都: (c, i) =>
    (at(c, i + 1) === '中' && '向至到在进入得于往回赴抵'.includes(at(c, i - 1)) && at(c, i + 2) !== '了') ||
    (at(c, i - 1) === '还' && isEnd(c, i + 1))
      ? 'du1'
      : undefined,
  还: (c, i) => {
    // A clause never ends on hái: 借钱要还，东西要还。 Nor on hái + the adverb 都: 请陛下还都 (return
    // to the capital).
    if (isEnd(c, i + 1) && i > 0 && HAN.test(at(c, i - 1))) return 'huan2';
    if (at(c, i + 1) === '都' && isEnd(c, i + 2)) return 'huan2';
    // 还我钱 / 还你书 / 还他。
    if (PRONOUN.has(at(c, i + 1)) && (isEnd(c, i + 2) || '钱书东西'.includes(at(c, i + 2)))) return 'huan2';
    // 还你一个灯彩, 还他两块钱: giving back a counted thing.
    if (PRONOUN.has(at(c, i + 1)) && /[一两几]/u.test(at(c, i + 2))) return 'huan2';
    // The adverb hái never takes the aspect 了: 还了亏空, 把钱还了 — but 还了得, 还了解.
    if (
      at(c, i + 1) === '了' &&
      at(c, i + 2) !== '得' &&
      !wordAround(c, i + 1) &&
      !isWord(c.slice(i + 1, i + 4).join(''))
    )
      return 'huan2';
    if (at(c, i + 1) === '回' && '得要请该去快'.includes(at(c, i - 1))) return 'huan2';
    // 把自行车还回来 / 把钱还了: the 把 construction takes the verb.
    if ('回给了'.includes(at(c, i + 1)) && clauseBefore(c, i).includes('把')) return 'huan2';
    return 'hai2';
  },
  得: (c, i, spans) => {
    const prev = at(c, i - 1);
    const next = at(c, i + 1);
    // 不是得着大批的正义么: dé (got) after an adverb or 是; 睡得着 is a verb's complement.
    if (next === '着' && (spans[i - 1]?.[2] === 'd' || '是没'.includes(prev))) return 'de2';
    // 所以得多走路, 可是得快: the modal děi heading a clause after a conjunction.
    if (
      spans[i - 1]?.[2] === 'c' &&
      spans[i][1] === i + 1 &&
      !DE2_AFTER.has(next) &&
      !isEnd(c, i + 1) &&
      next !== '了'
    )
      return 'dei3';
    if (MODAL_BEFORE_DEI.has(prev) && !DE2_AFTER.has(next) && !isEnd(c, i + 1) && next !== '了')
      return 'dei3';
    // 先已得了银子, 你才得了这个地方: "got" after an adverb (V得了, can V, follows a verb) with an
    // object after it; 角得此书: "got" between its subject and a written pronoun (听得此言 is hearing,
    // a verb's complement).
    if (
      (next === '了' && '已曾刚先未早'.includes(prev)) ||
      (next === '了' && spans[i - 1]?.[2] === 'd' && !isEnd(c, i + 2) && !wordAround(c, i + 1)) ||
      ('此其之'.includes(next) && !wordAround(c, i) && /^(n|r)/.test(spans[i - 1]?.[2] ?? ''))
    )
      return 'de2';
    // 忘记不得。 去不得: V不得 closing a clause is the complement (can't), not bùdé.
    if (prev === '不' && isEnd(c, i + 1) && spans[i - 2]?.[2].startsWith('v')) return 'de5';
    // 得了三分 / 得了第一: "got" before a number.
    if (next === '了' && /[0-9一二两三四五六七八九十百几第满]/u.test(at(c, i + 2))) return 'de2';
    if (isWord(c.slice(i, i + 2).join('')) || isWord(c.slice(i - 1, i + 1).join(''))) return undefined;
    // V/A + 得 + complement: 说得对, 跑得很快, 洗得干干净净.
    if (HAN.test(prev) && !PRONOUN.has(prev) && HAN.test(next)) return 'de5';
    return undefined;
  },
  数: (c, i, spans) => {
    // 数不尽, 数不清, 数得过来: counting, the verb with a potential complement (the number shù takes none).
    if ('不得'.includes(at(c, i + 1)) && '尽清完过胜出'.includes(at(c, i + 2))) return 'shu3';
    if (at(c, i + 1) === '一' && at(c, i + 2) === '数') return 'shu3';
    if (at(c, i - 1) === '一' && at(c, i - 2) === '数') return 'shu3';
    // 数一下 / 数一遍 / 数两遍: counting, a verb with a verbal measure.
    if (/[一两三几]/u.test(at(c, i + 1)) && /[下遍次回]/u.test(at(c, i + 2))) return 'shu3';
    if (isWord(c.slice(i, i + 2).join(''))) return undefined;
    // Inside a noun jieba knows (全数, 人数): the number, shù.
    if (spans[i][1] - spans[i][0] >= 2 && spans[i][2] === 'n') return 'shu4';
    if ('了着过遍到完'.includes(at(c, i + 1))) return 'shu3';
    if ('在去来再你我他她'.includes(at(c, i - 1))) return 'shu3';
    return undefined;
  },
  空: (c, i) => {
    if (isWord(c.slice(i, i + 2).join(''))) return undefined;
    if ('有没抽得'.includes(at(c, i - 1))) return 'kong4';
    return undefined;
  },
  长: (c, i, spans) => {
    if ('高胖满出着辈'.includes(at(c, i + 1))) return 'zhang3';
    // 长成 (grow into), 长了价钱 (rose in price): the verb zhǎng with a result or an object; 长了 closing
    // a clause (头发长了) is getting long, cháng.
    if (
      at(c, i + 1) === '成' ||
      (at(c, i + 1) === '了' && !isEnd(c, i + 2) && !'些点'.includes(at(c, i + 2)))
    )
      return 'zhang3';
    // X长 as a noun jieba knows but the reading dictionary does not (局长, 站长): the head of X — not
    // 多长, 很长 (how long, very long).
    const [s, e, tag] = spans[i];
    // 长长 said twice is long (长长一块布).
    return e - s === 2 && e === i + 1 && tag === 'n' && !'多很太好更最真挺那这长'.includes(c[s])
      ? 'zhang3'
      : undefined;
  },
  // 种 zhòng (plant) before its object; 种的 after a noun is the breed (汉人种的生活).
  种: (c, i, spans) => {
    // 地上种的, 院里种的: planted somewhere.
    if (at(c, i + 1) === '的' && (spans[i - 1]?.[2] === 'f' || '上里下'.includes(at(c, i - 1))))
      return 'zhong4';
    // …unless 种 ends a dictionary word (杂种, 品种), which decides.
    return HAN.test(at(c, i + 1)) && at(c, i + 1) !== '的' && !wordAround(c, i) ? 'zhong4' : undefined;
  },
  // 哀乐 beside 爱憎, 喜怒, 悲欢 is grief and joy (āilè), not the funeral music (āiyuè).
  乐: (c, i) => {
    if (at(c, i - 1) === '哀' && /爱憎|喜怒|悲欢|苦乐|忧/u.test(c.join(''))) return 'le4';
    // Music, yuè: 诸乐齐奏, 乐奏; and the surname Yuè after 姓 (姓乐，名进).
    return '诸姓'.includes(at(c, i - 1)) || at(c, i + 1) === '奏' || c.slice(i + 1, i + 3).join('') === '齐奏'
      ? 'yue4'
      : undefined;
  },
  // 曲 qū, bent, before a part of the body (弯腰曲背, 曲膝); qǔ is a tune.
  曲: (c, i) => ('背腰膝身肱'.includes(at(c, i + 1)) ? 'qu1' : undefined),
  // 待 dāi (stay): 待了会儿, 待在家里; dài (treat, wait) elsewhere.
  // …and 待一会儿 (wait a moment there).
  待: (c, i) =>
    at(c, i + 1) === '在' ||
    /^一会/u.test(c.slice(i + 1, i + 3).join('')) ||
    (at(c, i + 1) === '了' && /^有?(一?会|半天|几天|一天|些|一顿)/u.test(c.slice(i + 2, i + 6).join('')))
      ? 'dai1'
      : undefined,
  // 盛 chéng (fill a vessel) on its own before what is filled in: 盛饭, 盛猪羊狗血; shèng in words (盛开).
  // …or with 满, 着, 在 after it (盛满她们的筐篮): filling, holding.
  盛: (c, i, spans) =>
    spans[i][1] - spans[i][0] === 1 &&
    (/^n/.test(spans[i + 1]?.[2] ?? '') || '满着在进'.includes(at(c, i + 1)))
      ? 'cheng2'
      : undefined,
  // 舍着脸, 舍了命: the verb shě (give up), not the house shè.
  // …and after 难, 割, 施 (难舍, 割舍, 施舍): parting with, shě.
  舍: (c, i) => ('着了掉去弃'.includes(at(c, i + 1)) || '难割施'.includes(at(c, i - 1)) ? 'she3' : undefined),
  // 卷 juǎn, the verb (卷入, 卷起, 卷走); juàn is a volume or a scroll.
  // …and so is 卷卷 said twice, the verb "roll up a little" (卷卷裤脚); after a numeral 一卷卷 is the
  // measure word, juàn.
  卷: (c, i) => {
    const first = at(c, i - 1) === '卷' ? i - 1 : i;
    if ((at(c, i + 1) === '卷' || first < i) && !NUMERAL.test(at(c, first - 1))) return 'juan3';
    return '入起走去着了成在上进住巴'.includes(at(c, i + 1)) ? 'juan3' : undefined;
  },
  // 横 hèng (unruly) as the predicate after a degree word: 愈横, 很横; héng elsewhere.
  横: (c, i) => (isEnd(c, i + 1) && '很太愈越更真好挺'.includes(at(c, i - 1)) ? 'heng4' : undefined),
  // 处得, 处着, 处了: the verb (get along, be placed in) takes complements and aspects; the noun chù does
  // not — unless 处 ends a word (好处了).
  处: (c, i) =>
    '得着了'.includes(at(c, i + 1)) && !isWord(c.slice(i - 1, i + 1).join('')) ? 'chu3' : undefined,
  假: (c, i) => (at(c, i - 1) === '天' && isEnd(c, i + 1) ? 'jia4' : undefined),
  // 将 jiāng before a pronoun (将他); jiàng, a general, counted with 员 (一员大将, 一员天将).
  // …and 将 jieba reads as an adverb on its own (委员会将负责, 将于明天): about to, jiāng.
  将: (c, i, spans) =>
    PRONOUN.has(at(c, i - 1)) || (spans[i][1] - spans[i][0] === 1 && spans[i][2] === 'd')
      ? 'jiang1'
      : at(c, i - 1) === '员' || at(c, i - 2) === '员'
        ? 'jiang4'
        : undefined,
  // 折 shé, broken (打折了腿, 腿折了) or lost in trade (折在公债票上, 折本); zhé elsewhere (打折, 折叠).
  折: (c, i) => {
    // 打折了腿, 打折了你的腿: broken, with the limb anywhere after in the clause.
    if (at(c, i + 1) === '了' && /[腿臂手脚骨腰]/u.test(clauseAfter(c, i))) return 'she2';
    if ('腿臂骨腰'.includes(at(c, i - 1)) || at(c, i + 1) === '本') return 'she2';
    return at(c, i + 1) === '在' && /钱|债|票|股|生意|买卖/u.test(c.slice(i, i + 12).join(''))
      ? 'she2'
      : undefined;
  },
  // 斗 dǒu, the measure, after a numeral or 论 (量金量银不论斗, 三斗米).
  // …and after 的 (量米的斗): a noun, the measure; the verb dòu takes no 的 before it (的斗争 is a word).
  斗: (c, i) =>
    NUMERAL.test(at(c, i - 1)) || at(c, i - 1) === '论' || (at(c, i - 1) === '的' && !wordAround(c, i))
      ? 'dou3'
      : undefined,
  // 识 zhì (inscribed, noted) closing a date or a signature: 七年四月二日识。 谨识, 附识.
  识: (c, i) => ('日谨附敬'.includes(at(c, i - 1)) && isEnd(c, i + 1) ? 'zhi4' : undefined),
  // 口角 is a quarrel (jué) when had with someone (和别人口角); the corner of the mouth (jiǎo) is where
  // something is (口角上, 口角间, 口角流涎).
  角: (c, i) => {
    if (at(c, i - 1) !== '口') return undefined;
    if ('上间边流里旁处'.includes(at(c, i + 1))) return 'jiao3';
    return /[和与同跟]/u.test(clauseBefore(c, i - 1)) ? 'jue2' : undefined;
  },
  干: (c, i, spans) => {
    if (at(c, i + 1) === '了') return isEnd(c, i + 2) ? 'gan1' : 'gan4';
    // 干着, 干吧, 干过: the verb with an aspect or a mood; 往前干。 闷着头儿干， 不敢去干， — the verb
    // ending a clause after a way, a direction or a will (天又干 stays dry).
    if ('着吧过起'.includes(at(c, i + 1)) && !wordAround(c, i)) return 'gan4';
    // 干活, 干苦活儿, 干粗活: working.
    if (c.slice(i + 1, i + 3).includes('活')) return 'gan4';
    if (
      isEnd(c, i + 1) &&
      !wordAround(c, i) &&
      '儿前劲实苦硬蛮好就去来要肯敢能会想该得'.includes(at(c, i - 1))
    )
      return 'gan4';
    // 该干些正经事, 干点活: the verb before a measure of what is done and the thing itself.
    if ('些点'.includes(at(c, i + 1)) && spans[i + 2]?.[2].startsWith('n')) return 'gan4';
    // 干不了 / 干得好: the verb with a complement.
    if ('不得'.includes(at(c, i + 1)) && !isWord(c.slice(i, i + 2).join(''))) return 'gan4';
    // 干这行 / 干那件事 / 干什么: the verb before a demonstrative or question word.
    if ('这那啥嘛吗你我他她'.includes(at(c, i + 1)) && HAN.test(at(c, i - 1))) return 'gan4';
    return undefined;
  },
  着: (c, i, spans) => {
    // 她穿着奇怪的衣裳: 穿着/戴着 after its subject or an adverb is wearing (zhe), not the noun 穿着
    // (attire, chuānzhuó) of 她的穿着.
    const before = spans[i - 2];
    if ('穿戴'.includes(at(c, i - 1)) && before && /^(r|n|nr|d)$/.test(before[2]) && !isEnd(c, i + 1))
      return 'zhe5';
    // V不着 / V得着: 找不着, 睡得着, 犯不着, 用不着.
    if ('不得'.includes(at(c, i - 1)) && HAN.test(at(c, i - 2))) return 'zhao2';
    // 抢先一着。 高一着: a move, zhāo.
    return at(c, i - 1) === '一' && isEnd(c, i + 1) ? 'zhao1' : undefined;
  },
  了: (c, i, spans) => {
    const prev = at(c, i - 1);
    // V不了 (can't): 吃不了, 侍候不了长衫主顾, 免不了 — the potential complement is liǎo.
    if (prev === '不' && HAN.test(at(c, i - 2))) return 'liao3';
    // 办得了吗 / 去得了。 (but 他得了第一名)
    if (
      prev === '得' &&
      HAN.test(at(c, i - 2)) &&
      !PRONOUN.has(at(c, i - 2)) &&
      (isEnd(c, i + 1) || '吗吧呢么'.includes(at(c, i + 1)))
    )
      return 'liao3';
    if (prev === '明' && !isWord(c.slice(i - 2, i).join(''))) return 'liao3';
    // Anywhere else 了 on its own is the particle le (“国骂”了。): liǎo lives in words (了解, 了结, 了无)
    // and in the patterns above; pinyin-pro alone reads 了 after a quotation mark liǎo.
    // The particle follows what it marks: 了 opening a sentence, a clause or a title (《了凡纲鉴》) is a
    // name's or a word's; after a closing quotation mark it is still the particle.
    const opens = i === 0 || '《“‘「（(。，、；：？！…'.includes(prev);
    return spans[i][1] - spans[i][0] === 1 && !wordAround(c, i) && !opens ? 'le5' : undefined;
  },
  地: (c, i, spans) => {
    const prev2 = c.slice(Math.max(0, i - 2), i).join('');
    const prev3 = c.slice(Math.max(0, i - 3), i).join('');
    // 暗暗地, 慢慢地: a reduplicated adverb, even where 暗地 is a word.
    if (prev2.length === 2 && prev2[0] === prev2[1] && HAN.test(prev2[0])) return 'de5';
    // jieba's particle (uv) between a verb or adverb and a verb (却不歇地抬头去瞧): de, after a word of
    // any length
    // (远地 after an adjective stays a place: 我从远地冒着雨回来.)
    if (
      spans[i][2] === 'uv' &&
      spans[i][1] === i + 1 &&
      /^(v|d)/.test(spans[i - 1]?.[2] ?? '') &&
      spans[i + 1]?.[2].startsWith('v')
    )
      return 'de5';
    // 地 on its own after an adjective, adverb or idiom jieba knows (简单地, 慷慨地, 这样地): the particle.
    const before = i > 0 ? spans[i - 1] : undefined;
    if (spans[i][1] - spans[i][0] === 1 && before && before[1] - before[0] >= 2) {
      const word = c.slice(before[0], i).join('');
      if (/^(a|ad|an|b|d|z|i|l)$/.test(before[2]) || ['这样', '那样', '怎样'].includes(word)) return 'de5';
      // …and before a verb (怨愤地吁一口气), unless a numeral or pronoun makes it a plot of land (那块地卖了).
      const after = spans[i + 1];
      if (after?.[2].startsWith('v') && !/^(m|mq|q|r)$/.test(before[2])) return 'de5';
      // …and wherever jieba takes it for the particle (uv) after a verb (闪烁地生光).
      if (spans[i][2] === 'uv' && before[2].startsWith('v')) return 'de5';
    }
    if (isWord(c.slice(i - 2, i + 1).join('')) || isWord(c.slice(i - 1, i + 1).join(''))) return undefined;
    if (ADVERBIAL.has(prev2) || ADVERBIAL.has(prev3) || prev2.endsWith('然')) return 'de5';
    if (SPEECH_VERB.has(at(c, i + 1)) && isWord(prev2)) return 'de5';
    return undefined;
  },
  和: (c, i) => (at(c, i + 1) === '了' && c.slice(0, i).join('').includes('麻将') ? 'hu2' : undefined),
  // 睡 or 歇 just before is a sleep (睡了一觉), unless 觉 is in a word of its own (睡下，不觉早又天明).
  觉: (c, i) =>
    (/[睡歇]/u.test(c.slice(Math.max(0, i - 4), i).join('')) && !wordAround(c, i)) ||
    // 中觉, 晌觉 (a nap), not 心中觉得
    ('中午晌'.includes(at(c, i - 1)) && !'得悟醒察出着'.includes(at(c, i + 1)))
      ? 'jiao4'
      : undefined,
  // …and a tune, diào, closing what is sung or heard (唱着窑调, 哼着小调), or ending a noun jieba makes
  // that the dictionary lacks (歌调).
  调: (c, i, spans) =>
    (spans[i][1] === i + 1 &&
      spans[i][0] < i &&
      spans[i][2] === 'n' &&
      !isWord(c.slice(spans[i][0], i + 1).join(''))) ||
    '到往任离'.includes(at(c, i + 1)) ||
    (isEnd(c, i + 1) && /[唱哼听]/u.test(clauseBefore(c, i)) && !wordAround(c, i))
      ? 'diao4'
      : undefined,
  传: (c, i) => (at(c, i + 1) === '》' ? 'zhuan4' : undefined),
  背: (c, i, spans) => {
    // A place word jieba makes of it (背上有, 背上又着了一下) is the back, bèi, where 有/是, an adverb, a
    // preposition or a particle follows; before an object it is carrying (背上包裹).
    const after = spans[i][1];
    if (
      spans[i][0] === i &&
      after > i + 1 &&
      spans[i][2] === 'f' &&
      ('有是'.includes(at(c, after)) || /^(d|p|u)/.test(spans[after]?.[2] ?? ''))
    )
      return 'bei4';
    // 背着丈夫说: behind someone's back, bèi — one does not speak while carrying someone.
    const who = at(c, i + 1) === '着' ? spans[i + 2] : undefined;
    if (who && /^(n|nr|r)$/.test(who[2]) && '说讲骂议谈问告'.includes(at(c, who[1]))) return 'bei4';
    // 背了一件东西: carrying, the verb with a counted object.
    if (at(c, i + 1) === '了' && NUMERAL.test(at(c, i + 2))) return 'bei1';
    // 背了衣服: carrying a thing; bèi (recite) takes a text (背了书, 背了诗).
    if (at(c, i + 1) === '了' && spans[i + 2]?.[2] === 'n' && !'书诗文课稿词经'.includes(at(c, i + 2)))
      return 'bei1';
    return '着起上'.includes(at(c, i + 1)) &&
      !PRONOUN.has(at(c, i + 2)) &&
      !isWord(c.slice(i, i + 2).join(''))
      ? 'bei1'
      : undefined;
  },
  教: (c, i, spans) => {
    // 教 jiào (make, let) when what follows its object is a happening, not a skill: 教它们劈了腿, 教村中的
    // 人们捉住, 谁教他是老太爷.
    const object = spans[i][1] === i + 1 ? spans[i + 1] : undefined;
    if (object && /^(r|n|nr)/.test(object[2])) {
      let k = object[1];
      while (k < c.length && spans[k][2] === 'uj') k = spans[k][1];
      while (k < c.length && /^(n|r|d)/.test(spans[k][2]) && !isEnd(c, k)) k = spans[k][1];
      if (at(c, k) === '是') return 'jiao4';
      // 脸教她给丢净, 教他给你送去: 教 + someone + 给 is the passive or an errand, jiào.
      if (at(c, k) === '给' && spans[k][1] === k + 1) return 'jiao4';
      // 早已教人“非礼勿视”: teaching a saying, jiāo.
      if ('“「‘：:'.includes(at(c, k))) return 'jiao1';
      const verb = spans[k];
      if (verb?.[2].startsWith('v') && (verb[1] - verb[0] === 1 ? '了住' : '住').includes(at(c, verb[1])))
        return 'jiao4';
      if (verb?.[2].startsWith('v') && verb[1] - verb[0] === 2 && '住倒死坏掉'.includes(c[verb[1] - 1]))
        return 'jiao4';
      // …or a state of mind (足以教我们相信, 教人害怕)…
      const said = verb ? c.slice(verb[0], verb[1]).join('') : '';
      if (/^(相信|知道|明白|觉得|感到|害怕|惭愧|失望|放心|担心|伤心|难过|生气|着急|看见|听见)$/u.test(said))
        return 'jiao4';
      // …or an errand, a verb of going or one taking a destination: 教他拉到Ｓ门去, 教她们也来.
      // …also where a direction follows the verb (教他拿出来, 教你送过去).
      const direction = verb && spans[verb[1]];
      if (
        verb?.[2].startsWith('v') &&
        ('去来回走'.includes(c[verb[0]]) ||
          '到去来回'.includes(at(c, verb[1])) ||
          (direction && DIRECTION.has(c.slice(direction[0], direction[1]).join(''))))
      )
        return 'jiao4';
    }
    // 教给, 教会了我 (taught); 教会 on its own is the church (jiàohuì).
    if (at(c, i + 1) === '会')
      return PRONOUN.has(at(c, i + 2)) || at(c, i + 2) === '了' ? 'jiao1' : undefined;
    return PRONOUN.has(at(c, i + 1)) || at(c, i + 1) === '给' ? 'jiao1' : undefined;
  },
  当: (c, i, spans) => {
    // 上了大当: the noun of 上当, dàng.
    if (at(c, i - 1) === '大' && clauseBefore(c, i).slice(-4).includes('上')) return 'dang4';
    // 正当 as an adjective (是正当的, 很正当) is zhèngdàng (proper), not zhèngdāng (just when).
    if (at(c, i - 1) === '正' && (at(c, i + 1) === '的' || '是很不'.includes(at(c, i - 2)))) return 'dang4';
    // 当 dàng (take as) before a pronoun and nothing but nouns (有的当他们名人); with a verb after
    // the pronoun it is dāng (when: 当他们来的时候).
    const pronoun = spans[i + 1];
    if (spans[i][1] - spans[i][0] !== 1 || pronoun?.[2] !== 'r') return undefined;
    let nouns = 0;
    for (let k = pronoun[1]; !isEnd(c, k); k = spans[k][1], nouns++)
      if (!spans[k][2].startsWith('n')) return undefined;
    return nouns > 0 ? 'dang4' : undefined;
  },
  中: (c, i) =>
    '考说猜射击选命打看相'.includes(at(c, i - 1)) && !isWord(c.slice(i, i + 2).join(''))
      ? 'zhong4'
      : undefined,
  落: (c, i) => {
    return at(c, i + 1) === '在' && clauseBefore(c, i).includes('把') ? 'la4' : undefined;
  },
  // 倒 dào (on the contrary, rather) as an adverb before a verb or adjective; dǎo (fall) before 在/下/了.
  倒: (c, i, spans) => {
    // Inside a dictionary word (倒霉, 颠倒) the word decides.
    if (spans[i][1] - spans[i][0] > 1 && isWord(c.slice(spans[i][0], spans[i][1]).join(''))) return undefined;
    if ('水茶酒杯'.includes(at(c, i + 1))) return 'dao4';
    if ('也是觉很反几不没并正还要有像真可会显比该应使好'.includes(at(c, i + 1))) return 'dao4';
    // 倒竖, 倒撑, 倒挂: upside down or in reverse, dào.
    if ('竖撑挂立退流贴插'.includes(at(c, i + 1)) && !wordAround(c, i)) return 'dao4';
    // 倒走了, 倒跑到 (instead went): dào before a verb of motion with its result.
    if ('走跑来去'.includes(at(c, i + 1)) && '了到向进出'.includes(at(c, i + 2))) return 'dao4';
    // …or before any adverb jieba knows (倒久已习惯), or a verb of two characters or more (倒欺负他):
    // falling, dǎo, is the verb itself and takes no other verb (倒下, 倒在 are a word and a preposition).
    const next = spans[i + 1];
    if (spans[i][1] === i + 1 && next?.[2].startsWith('v') && next[1] - next[0] >= 2) return 'dao4';
    return next?.[2] === 'd' ? 'dao4' : undefined;
  },
  // 吓 as an interjection (吓，不是好东西) is hè; the verb (吓跑, 吓了一跳) is xià.
  吓: (c, i) =>
    isEnd(c, i + 1) && (i === 0 || END.has(at(c, i - 1)) || '“‘「『'.includes(at(c, i - 1)))
      ? 'he4'
      : undefined,
  // 载 zài as a verb of carrying: 载去, 载给, 载着.
  载: (c, i) =>
    '去给来着走回到客人货重满'.includes(at(c, i + 1)) ||
    ('得不'.includes(at(c, i + 1)) && '起动下了完'.includes(at(c, i + 2)))
      ? 'zai4'
      : undefined,
  // 铺 pū as the verb (铺在地上, 铺开); the shop 铺子/店铺 is pù.
  // …and 铺 on its own before a verb (铺通, laid through): pū; pù is the shop or the bed (烧饼铺, 打铺).
  铺: (c, i, spans) =>
    ('在上开好着满平了成些地'.includes(at(c, i + 1)) ||
      (spans[i][1] - spans[i][0] === 1 &&
        /^v/.test(spans[i + 1]?.[2] ?? '') &&
        !NUMERAL.test(at(c, i - 1)) &&
        at(c, i - 1) !== '打')) &&
    !wordAround(c, i)
      ? 'pu1'
      : undefined,
  // 切 jieba reads as a verb on its own (切为长方形, 切成片): cutting, qiē; qiè is in words (一切, 切实).
  切: (c, i, spans) =>
    spans[i][1] - spans[i][0] === 1 && spans[i][2] === 'v' && !wordAround(c, i) ? 'qie1' : undefined,
  // 冠 guàn as a verb: 冠于全球, 冠以, 冠姓.
  冠: (c, i) => ('于以姓名'.includes(at(c, i + 1)) ? 'guan4' : undefined),
  // 笼 lǒng as the verb (笼上一层灰色, 笼罩); the cage 笼子 is lóng.
  笼: (c, i) => ('上着住罩'.includes(at(c, i + 1)) ? 'long3' : undefined),
  // 挨 ái (suffer, endure): 挨了打, 挨骂; āi (next to) takes a place or person: 挨八三坐着.
  挨: (c, i, spans) => {
    if ('了饿冻过'.includes(at(c, i + 1))) return 'ai2';
    // 挨 + a verb (挨罚, 挨批评): suffering it, ái; āi (next to) takes a place or a person, or a
    // direction (挨进来, edging in). 挨得过去, 挨不住: enduring.
    const verb = spans[i + 1];
    if (
      !wordAround(c, i) &&
      verb &&
      /^(v|zg)/.test(verb[2]) &&
      !'着到近'.includes(at(c, i + 1)) &&
      !DIRECTION.has(c.slice(verb[0], verb[1]).join(''))
    )
      return 'ai2';
    if ('得不'.includes(at(c, i + 1)) && '过住起下'.includes(at(c, i + 2))) return 'ai2';
    // 挨到 + a time (一直挨到现在, 挨到天亮): enduring until then.
    const after = at(c, i + 1) === '到' ? spans[i + 2] : undefined;
    if (after && /^(t|m|mq)$/.test(after[2])) return 'ai2';
    // 挨 + a stretch of time (多挨一会儿, 挨一天是一天): enduring it; 挨个, 挨八三坐着 stay āi.
    const span = spans[i + 1];
    const time = span && c.slice(span[0], span[1]).join('');
    return spans[i][1] === i + 1 &&
      time &&
      (span[2] === 't' ||
        /^(日子|光阴|岁月|时光)$/u.test(time) ||
        (/^m/.test(span[2]) && /[会天年月夜日阵宿]儿?$/u.test(time)))
      ? 'ai2'
      : undefined;
  },
  // 供 gōng (provide for) before someone who then does something: 供人寄存, 供君王娱乐.
  供: (c, i, spans) => {
    // 供养 is gōng, providing for the living (供养父母), but gòng, making offerings (供养起来, 供养祖像).
    if (at(c, i + 1) === '养')
      return '起着在祖神佛菩'.includes(at(c, i + 2)) || at(c, i - 1) === '地' ? 'gong4' : 'gong1';
    // 不能供母 (provide for one's mother) closing a clause: gōng.
    if ('母父亲妻儿'.includes(at(c, i + 1)) && isEnd(c, i + 2)) return 'gong1';
    const next = spans[i + 1];
    if (spans[i][1] - spans[i][0] !== 1 || !next || !/^(n|nr|nz|r)$/.test(next[2])) return undefined;
    // 供他游玩: for someone (a pronoun) to do something, whatever jieba tags it.
    if (next[2] === 'r' && !isEnd(c, next[1])) return 'gong1';
    // …with a verb anywhere later in the clause (意在供人们茶余酒后消遣).
    for (let k = next[1]; !isEnd(c, k); k = spans[k][1]) if (spans[k][2].startsWith('v')) return 'gong1';
    return undefined;
  },
  // 撇 piē (cast aside): 撇掉, 撇开, 撇下.
  // …but 撇嘴, 撇了半天嘴 (curl the lip) is piě.
  撇: (c, i) =>
    c.slice(i + 1, i + 6).includes('嘴') ? 'pie3' : '掉开下了'.includes(at(c, i + 1)) ? 'pie1' : undefined,
  // 钻 zuān, the verb, wherever it is not part of a word like 钻石 or 电钻.
  钻: (c, i) => (wordAround(c, i) ? undefined : 'zuan1'),
  // 只 zhǐ (only) is the adverb wherever it is a word on its own; after a numeral or demonstrative
  // (一只, 这只) it is the measure word zhī.
  只: (c, i, spans) => {
    // 这只是, 那只有: the adverb after a demonstrative subject; 这只猫 is the measure word.
    if ('这那'.includes(at(c, i - 1)) && '是有能会可'.includes(at(c, i + 1))) return 'zhi3';
    if (NUMERAL.test(at(c, i - 1)) || '这那哪每各某此'.includes(at(c, i - 1))) return 'zhi1';
    // 连只鸟也没有 (连一只): the measure word between 连 and a thing with 也/都 after it.
    if (at(c, i - 1) === '连' && /^.{1,2}[也都]/u.test(c.slice(i + 1, i + 4).join(''))) return 'zhi1';
    if (spans[i][1] - spans[i][0] === 1) return HAN.test(at(c, i + 1)) ? 'zhi3' : undefined;
    // …and so is a word jieba starts with it (只见, 只管, 只当).
    return spans[i][0] === i && /^(v|d|c)/.test(spans[i][2]) ? 'zhi3' : undefined;
  },
  // 为…所 (passive): 不为世间所知 — wéi; so is 以X为Y (物以希为贵). 以 and 所 count only outside
  // dictionary words (所有, 可以).
  为: (c, i, spans) => {
    // 所为 closing a clause (行拂乱其所为) is what one does, suǒwéi; 所为何事 asks why (wèi).
    if (at(c, i - 1) === '所' && isEnd(c, i + 1)) return 'wei2';
    // 称他为, 写他为 (name him as): wéi after a verb of naming and its object.
    if (PRONOUN.has(at(c, i - 1)) && '称叫写认视选推奉尊封立拜呼'.includes(at(c, i - 2))) return 'wei2';
    // 令玄德为其先锋, 加皇甫嵩为车骑将军: appointing someone as something.
    const who = spans[i - 1];
    if (who && /^(nr|n|r)/.test(who[2]) && '令命任拜封立加选推举派聘'.includes(at(c, who[0] - 1)))
      return 'wei2';
    // 被贬为, 讹为: demoted, promoted, turned into — wéi after a verb of becoming.
    if (who && who[1] === i && /^v/.test(who[2]) && '贬降召升迁擢讹'.includes(at(c, i - 1))) return 'wei2';
    // 女性为63%, 面积为5平方公里: a figure up to the clause's end is what something is.
    if (/^[0-9０-９.]+[%％]?\p{Script=Han}{0,4}$/u.test(clauseAfter(c, i))) return 'wei2';
    // 以X为Y, quotation marks included (以“妈”为限).
    for (let k = i - 1; k >= 0 && (!END.has(c[k]) || '“”‘’'.includes(c[k])); k--)
      if (c[k] === '以' && !wordAround(c, k)) return 'wei2';
    // 曾为国子祭酒, 乃为X: "was, served as" — a written adverb and nothing but a name to the clause's end.
    if ('曾乃即遂亦皆俱均原'.includes(at(c, i - 1))) {
      let k = i + 1;
      while (!isEnd(c, k) && !spans[k][2].startsWith('v') && spans[k][2] !== 'p') k = spans[k][1];
      if (isEnd(c, k)) return 'wei2';
    }
    for (let k = i + 1; k < c.length && !END.has(c[k]); k++)
      if (c[k] === '所' && !wordAround(c, k)) return 'wei2';
    return undefined;
  },
  // 量 liàng as the amount after a noun (负载量, 参数量); liáng (measure) is the verb.
  量: (c, i, spans) => {
    const [s, e, tag] = spans[i];
    // …ending a noun jieba knows (负载量) — unless it ends a verb the dictionary reads (精确测量).
    if (e - s >= 3 && e === i + 1 && tag === 'n' && !isWord(c.slice(i - 1, i + 1).join(''))) return 'liang4';
    const before = i > 0 ? spans[i - 1] : undefined;
    if (e - s !== 1 || !before || before[1] - before[0] < 2) return undefined;
    return /^(n|vn)$/.test(before[2]) && !spans[i + 1]?.[2].startsWith('v') ? 'liang4' : undefined;
  },
  // 禁 jīn (bear): 禁不住, 怎禁得, 禁得起.
  禁: (c, i) => ('得住起'.includes(at(c, i + 1)) ? 'jin1' : undefined),
  // 撒 sǎ (scatter): 撒得满地, 撒在, 撒了一地; sā is in words (撒谎, 撒娇).
  // …or closing a clause (向花叶上头乱撒): sā (let go, cast) takes its object (撒网, 撒手).
  撒: (c, i) =>
    !wordAround(c, i) && ('得在了满下到上遍开'.includes(at(c, i + 1)) || isEnd(c, i + 1)) ? 'sa3' : undefined,
  // 一哄而散, 一哄起来: all at once in an uproar, hòng; 一哄就睡了 (coax) stays hǒng.
  哄: (c, i) => (at(c, i - 1) === '一' && '而起散上'.includes(at(c, i + 1)) ? 'hong4' : undefined),
  // 系 jì, tying: 系 on its own with a belt, a cord or a knot just after (系狮蛮宝带, 系上绳子).
  系: (c, i, spans) =>
    spans[i][1] === i + 1 && /[带绳扣]/u.test(clauseAfter(c, i).slice(0, 10)) ? 'ji4' : undefined,
  // 帖儿, 帖子: a card or a note, tiě (字帖 is tiè, a word).
  帖: (c, i) => ('儿子'.includes(at(c, i + 1)) && !wordAround(c, i) ? 'tie3' : undefined),
  // 给蒙了, 被蒙了 closing a clause: fooled, mēng.
  蒙: (c, i) =>
    '给被'.includes(at(c, i - 1)) && at(c, i + 1) === '了' && isEnd(c, i + 2) ? 'meng1' : undefined,
  // 喝 hè (shout): 喝住, 喝道, 喝令, 喝彩.
  // …and 这一喝 closing a clause is a shout, a noun (drinking takes what is drunk: 喝一口).
  // …and 喝 before what is shouted (大喝：“贼将休走！”): one drinks no quotation.
  喝: (c, i) =>
    '住道令斥彩采问'.includes(at(c, i + 1)) ||
    ('：:“「'.includes(at(c, i + 1)) && !wordAround(c, i)) ||
    (at(c, i - 1) === '一' && isEnd(c, i + 1)) ||
    (at(c, i + 1) === '不' && at(c, i + 2) === '住') || // 喝也喝不住, both of them
    (at(c, i + 1) === '也' && at(c, i + 2) === '喝' && at(c, i + 3) === '不' && at(c, i + 4) === '住')
      ? 'he4'
      : undefined,
  // 一场 of a bout or an episode is cháng (哭了一场。一场大雨, 一场大纠纷); only a show, game, exam or a
  // spectacle (一场电影, 一场球赛, 一场热闹) is chǎng — 现代汉语词典's split of the measure word.
  场: (c, i, spans) =>
    (NUMERAL.test(at(c, i - 1)) || (at(c, i - 1) === '大' && NUMERAL.test(at(c, i - 2)))) &&
    !'戏电球比赛演考会热'.includes(at(c, i + 1)) &&
    !wordAt(c, spans, spans[i][1]).endsWith('赛') // 两场小组赛
      ? 'chang2'
      : undefined,
  // 杆 gǎn as the measure word: 一杆秤, 两杆枪.
  杆: (c, i) => (NUMERAL.test(at(c, i - 1)) ? 'gan3' : undefined),
  冲: (c, i) => ('很太挺真'.includes(at(c, i - 1)) ? 'chong4' : undefined),
  // 扇 shān, the verb (扇风, 扇枕), on its own before another character; after a numeral or a
  // demonstrative it is the measure word shàn (一扇门).
  扇: (c, i, spans) => {
    if ('风火了他她我你'.includes(at(c, i + 1))) return 'shan1';
    // Ending a noun jieba makes (纸扇, 团扇): the fan, shàn.
    if (spans[i][1] === i + 1 && spans[i][0] < i && spans[i][2] === 'n') return 'shan4';
    // 一扇一扇地 (flapping), the verb said twice.
    if (at(c, i - 1) === '一' && ((at(c, i + 1) === '一' && at(c, i + 2) === '扇') || at(c, i - 2) === '扇'))
      return 'shan1';
    if (NUMERAL.test(at(c, i - 1)) || DEMONSTRATIVE.has(at(c, i - 1)) || wordAround(c, i)) return undefined;
    return HAN.test(at(c, i + 1)) ? 'shan1' : undefined;
  },
  // …and 缝缝补补, 缝缝洗洗: the verb said twice.
  // …and 缝 on its own before what is sewn (煮药缝衣); the seam (门缝) is in words.
  缝: (c, i, spans) =>
    ('在正'.includes(at(c, i - 1)) && HAN.test(at(c, i + 1))) ||
    at(c, i + 1) === '缝' ||
    at(c, i - 1) === '缝' ||
    (spans[i][1] - spans[i][0] === 1 && !wordAround(c, i) && /^n/.test(spans[i + 1]?.[2] ?? ''))
      ? 'feng2'
      : undefined,
  // 率 outside a dictionary word is leading, shuài (率军, 公路率南阳之军); lǜ (a rate) only lives in words
  // (效率, 比率).
  // …but 率 ending a noun jieba makes of three characters or more (生育率, 收视率, 识字率) is the rate.
  率: (c, i, spans) => {
    const [s, e, tag] = spans[i];
    if (e === i + 1 && i - s >= 2 && tag === 'n') return 'lü4';
    return wordAround(c, i) ? undefined : 'shuai4';
  },
  // Characters of names and places whose reading outside a dictionary word is, by 现代汉语词典, the
  // other one: 阆中 Làng, 圩 wéi (江淮 dikes: 大圩镇), 蠡 lǐ (范蠡, 蠡县), 喇 lǎ (喀喇沁, 喇嘛).
  阆: (c, i) => (wordAround(c, i) ? undefined : 'lang4'),
  圩: (c, i) => (wordAround(c, i) ? undefined : 'wei2'),
  蠡: (c, i) => (wordAround(c, i) ? undefined : 'li3'),
  喇: (c, i) => (wordAround(c, i) ? undefined : 'la3'),
  // 咳 is coughing, ké (急咳, 镇咳), except as a sigh opening a clause and standing alone (咳！, 咳，).
  咳: (c, i) =>
    wordAround(c, i) || ((i === 0 || END.has(c[i - 1]) || '“「'.includes(c[i - 1])) && isEnd(c, i + 1))
      ? undefined
      : 'ke2',
  // 蛤 is gé (蛤蜊, 蛤蚧, the clams of 帘蛤科) except in 蛤蟆, the toad (há).
  蛤: (c, i) => (at(c, i + 1) === '蟆' ? undefined : 'ge2'),
  // 什 is shén only in 什么 (什麽); elsewhere — names (伊什特万, 什切青), 什锦, 什物 — it is shí.
  什: (c, i) => ('么麽'.includes(at(c, i + 1)) || wordAround(c, i) ? undefined : 'shi2'),
  // 塞 in a name of three characters or more (塞浦路斯, 塞尔维亚, 埃塞俄比亚, 圣何塞) is sài.
  塞: (c, i, spans) => {
    const [s, e, tag] = spans[i];
    const name = c.slice(s, e).join('');
    if (e - s >= 3 && (/^(ns|nr|nrt|nz)$/.test(tag) || name.endsWith('何塞')) && !isWord(name)) return 'sai4';
    // …or one jieba cuts apart: 塞 before a syllable only transliterations use (塞斯, 多塞特, 塞雷卡).
    return !wordAround(c, i) && '尔斯姆雷凯浦俄维特'.includes(at(c, i + 1)) ? 'sai4' : undefined;
  },
  // 丧 after 之 or 的 (秦氏之丧) is the funeral, a noun, sāng; the verb sàng (lose) takes an object.
  丧: (c, i, spans) => ('之的'.includes(at(c, i - 1)) && spans[i][1] === i + 1 ? 'sang1' : undefined),
  // 重 heading a verb jieba makes that the dictionary lacks (重设, 重修): again, chóng; the heavy and
  // weighty 重 are in words (重视, 重量).
  重: (c, i, spans) => {
    const [s, e, tag] = spans[i];
    return s === i && e === i + 2 && /^(v|vn)$/.test(tag) && !isWord(c.slice(s, e).join(''))
      ? 'chong2'
      : undefined;
  },
  // 强 qiǎng (by force) heading a verb jieba makes that the dictionary lacks (强索); the dictionary's
  // words (强调, 强迫) keep their own readings.
  强: (c, i, spans) => {
    const [s, e, tag] = spans[i];
    return s === i && e === i + 2 && tag === 'v' && !isWord(c.slice(s, e).join('')) ? 'qiang3' : undefined;
  },
  // 闷 mèn, a feeling, after a word of feeling (觉得闷不过, 心里闷); mēn is stuffy air or keeping quiet.
  闷: (c, i) => (/(觉得|感到|感觉|心里|心中)$/u.test(clauseBefore(c, i)) ? 'men4' : undefined),
  // 降 closing a clause after a word of will or time (何不早降！, 不降, 愿降) is surrendering, xiáng;
  // falling closes one after 而 or 下 (从天而降) or in words (下降).
  降: (c, i) => (isEnd(c, i + 1) && '早不肯愿请来'.includes(at(c, i - 1)) ? 'xiang2' : undefined),
};

// ---------------------------------------------------------------------------------------------
// Pluggable model (g2pW, text/g2pw.ts): the host registers it; readings are asked ahead, asynchronously.

export interface PolyphoneModel {
  id: string;
  /** Readings (tone-numbered) for the given character positions of a sentence; '' = no opinion. */
  predict(text: string, positions: number[]): Promise<string[]>;
}

let model: PolyphoneModel | undefined;
/** The model's readings of recent texts, per character ('' = no opinion), oldest first. */
const predicted = new Map<string, string[]>();
const PREDICTED_KEPT = 256;

/** Registers (or with undefined, removes) a context model for the polyphones no phrase fixes. */
export function setPolyphoneModel(m: PolyphoneModel | undefined): void {
  model = m;
  predicted.clear();
}

/**
 * Asks the registered model (if any) for the polyphones of a text, so that pinyinReadings of the same
 * text uses them. Without a model, or when it fails, the rules decide: a model that cannot run costs
 * its opinion, never the synthesis.
 */
export async function preparePolyphones(text: string): Promise<void> {
  const m = model;
  if (!m || predicted.has(text)) return;
  ensureDictionary();
  const chars = [...text];
  const poly: number[] = [];
  for (let i = 0; i < chars.length; i++) if (HAN.test(chars[i]) && isPolyphone(chars[i])) poly.push(i);
  if (!poly.length) return;
  const readings = await m.predict(text, poly).catch(() => undefined);
  // Nothing to keep without an opinion (no model installed yet): ask again next time.
  if (!readings?.some(Boolean) || m !== model) return;
  const perChar = chars.map(() => '');
  poly.forEach((i, n) => {
    if (readings[n]) perChar[i] = numbered(readings[n]);
  });
  predicted.set(text, perChar);
  if (predicted.size > PREDICTED_KEPT) predicted.delete(predicted.keys().next().value!);
}

// ---------------------------------------------------------------------------------------------

const polyCache = new Map<string, boolean>();
function isPolyphone(ch: string): boolean {
  let v = polyCache.get(ch);
  if (v === undefined) {
    v = (polyphonic(ch, { toneType: 'num', type: 'array' })[0] ?? []).length > 1;
    polyCache.set(ch, v);
  }
  return v;
}

/** Tone-marked or numbered pinyin → numbered with neutral tone 5. */
function numbered(syllable: string): string {
  const s = syllable.toLowerCase().replaceAll('v', 'ü');
  if (/[0-5]$/.test(s)) return s.replace(/0$/, '5');
  const n = convert(s, { format: 'symbolToNum' });
  return /[0-5]$/.test(n) ? n.replace(/0$/, '5') : `${s}5`;
}

/**
 * One reading per character (code point) of the text: tone-numbered pinyin with neutral tone 5 for
 * Chinese characters, '' for everything else. The user's dictionary (word → space-separated pinyin,
 * one syllable per character) takes precedence over every other layer.
 */
export function pinyinReadings(text: string, dictionary?: DictionaryEntry[]): PinyinReading[] {
  ensureDictionary();
  const chars = [...text];
  const items = pinyin(text, { toneType: 'num', type: 'all' });
  const out: PinyinReading[] = [];
  // pinyin-pro returns one item per character; map by code point to be safe.
  let k = 0;
  for (const item of items) {
    for (const ch of item.origin) {
      out.push({ char: ch, pinyin: item.isZh && item.pinyin ? item.pinyin.replace(/0$/, '5') : '' });
      k++;
    }
  }
  if (k !== chars.length) {
    // Defensive: fall back to character-by-character readings.
    out.length = 0;
    for (const ch of chars)
      out.push({ char: ch, pinyin: HAN.test(ch) ? pinyin(ch, { toneType: 'num' }).replace(/0$/, '5') : '' });
  }

  const poly: number[] = [];
  for (let i = 0; i < chars.length; i++) if (out[i].pinyin && isPolyphone(chars[i])) poly.push(i);

  const fromModel = model ? predicted.get(text) : undefined;
  const spans = poly.length ? wordSpans(text) : [];
  for (const i of poly) {
    // The model's reading comes after the certain rules and the phrase table, before the rest.
    const r =
      FIRST[chars[i]]?.(chars, i, spans) ??
      (fromModel?.[i]
        ? (tableReading(chars, i, spans) ?? fromModel[i])
        : (wordReading(chars, i, spans) ??
          surnameReading(chars, i, spans) ??
          RULES[chars[i]]?.(chars, i, spans) ??
          segmentReading(chars, i, spans)));
    if (r) out[i].pinyin = r;
  }

  reduplicated(chars, out);
  if (dictionary?.length) applyDictionary(chars, out, dictionary);
  return out;
}

/**
 * AABB forms of a two-character word (稳稳当当, 清清楚楚): the BB keep their full tone even where
 * the word itself ends in a neutral one (稳当 wěndang, 清楚 qīngchu).
 */
function reduplicated(chars: string[], out: PinyinReading[]): void {
  for (let j = 0; j + 3 < chars.length; j++) {
    const [a, a2, b, b2] = chars.slice(j, j + 4);
    if (a !== a2 || b !== b2 || a === b || !HAN.test(a) || !HAN.test(b) || !isWord(a + b)) continue;
    for (const k of [j + 2, j + 3]) if (out[k].pinyin.endsWith('5')) out[k].pinyin = ownReading(b);
  }
}

const ownCache = new Map<string, string>();
/** The reading of a character on its own (pinyin-pro's first reading). */
function ownReading(ch: string): string {
  let r = ownCache.get(ch);
  if (r === undefined) {
    r = pinyin(ch, { toneType: 'num' }).replace(/0$/, '5');
    ownCache.set(ch, r);
  }
  return r;
}

function applyDictionary(chars: string[], out: PinyinReading[], dictionary: DictionaryEntry[]): void {
  const entries = dictionary
    .map((e) => ({
      word: [...e.word.trim()],
      syllables: e.pinyin.trim().split(/\s+/).filter(Boolean).map(numbered),
    }))
    .filter((e) => e.word.length > 0 && e.word.length === e.syllables.length)
    .sort((a, b) => b.word.length - a.word.length);
  const taken = new Array<boolean>(chars.length).fill(false);
  for (const e of entries) {
    for (let s = 0; s + e.word.length <= chars.length; s++) {
      let match = true;
      for (let j = 0; j < e.word.length && match; j++) match = chars[s + j] === e.word[j] && !taken[s + j];
      if (!match) continue;
      for (let j = 0; j < e.word.length; j++) {
        out[s + j].pinyin = e.syllables[j];
        taken[s + j] = true;
      }
    }
  }
}

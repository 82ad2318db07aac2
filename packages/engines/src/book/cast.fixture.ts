/**
 * Whole texts for the cast a user sees when an audiobook is cast (every role the attribution names), with
 * the true speaking characters written down by hand before the casting was run on them. Texts
 * (public domain, in cast/): 鲁迅《阿Q正传》《孔乙己》《药》《故乡》《祝福》 as printed in the
 * tallusil/luxun-novel-analysis collection (the notes after each story left out), 老舍《骆驼祥子》
 * chapters 1–5 and 曹雪芹《红楼梦》第四回 from hankinghu/literature-books, 施耐庵《水浒传》第二十二回 (this
 * edition's numbering: 景阳冈武松打虎) from hexhero/book-txt; one paragraph a line.
 *
 * `main`: characters with two lines or more, aliases split by |, the first the usual name; a role is
 * right when its name is one of them. `minor`: people who speak once, groups and descriptions of people
 * (众人, 一个老头子) — right as roles, not needed for recall. Anything else found is not a character.
 * After the first run, people the lists had missed were added, each checked in the text: 桩家, 酒店里的人
 * and 少奶奶 (阿Q), the 光头的矮子 and the 铺主 (骆驼祥子), 贾母 and 贾政 sending word (红楼梦); and names
 * the texts give that the lists lacked: 圆规 (杨二嫂), 乞丐 (祥林嫂), 卫若婆子 (the edition's misprint of
 * 卫老婆子), 他的母亲 (华大妈), 虎姑娘, 太太 (杨太太). 孔子 in 《阿Q正传》 is cited in the narration (孔子曰),
 * 城里人 names a word (城里人却叫“条凳”): neither speaks. The list of 《水浒传》 had 武大 and the 妇人 as main
 * characters, but in this edition's 第二十二回 武大 only calls once (as 一个人) and she does not come in.
 */
import { readFileSync } from 'node:fs';

export interface CastBook {
  source: string;
  file: string;
  main: string[];
  minor: string[];
  /** Crowds and unnamed voices (众人, 闲人们): right as roles, never a split character. */
  crowds?: string[];
}

export const CAST_BOOKS: CastBook[] = [
  {
    source: '鲁迅《阿Q正传》',
    file: 'aq.txt',
    main: [
      '阿Q|阿Q哥|老Q|Q哥|阿桂|阿贵',
      '赵太爷|太爷|老太爷|赵老太爷',
      '赵秀才|秀才|茂才先生|茂才公',
      '假洋鬼子|洋先生|钱太爷的大儿子',
      '王胡',
      '邹七嫂|七嫂',
      '地保',
      '小尼姑',
      '老尼姑|老尼',
      '老头子|光头的老头子',
    ],
    minor: [
      '小D|小Ｄ',
      '吴妈',
      '赵白眼',
      '赵司晨',
      '把总',
      '举人老爷|举人',
      '赵太太|太太',
      '秀才娘子',
      '长衫人物|长衫人',
      '桩家',
      '少奶奶|赵少奶奶',
      '掌柜|酒店掌柜',
      '母亲|他的母亲',
    ],
    crowds: [
      '闲人|闲人们|看的人|人们|众人|未庄人|几个人|酒店里的人',
      '看客|看客们|人丛',
      '兵|团丁|士兵',
      '老头子们|一个老头子',
    ],
  },
  {
    source: '鲁迅《孔乙己》',
    file: 'kongyiji.txt',
    main: ['孔乙己', '掌柜', '喝酒的人|喝酒的人们|众人|他们|有人|旁人|一个喝酒的人'],
    minor: ['我|伙计|小伙计', '孩子|邻舍孩子|孩子们'],
  },
  {
    source: '鲁迅《药》',
    file: 'yao.txt',
    main: [
      '华老栓|老栓',
      '华大妈|老栓的女人|女人|母亲|他的母亲',
      '小栓',
      '康大叔|黑的人|浑身黑色的人|满脸横肉的人|横肉的人',
      '花白胡子|花白胡子的人',
      '驼背五少爷|驼背',
      '夏四奶奶|白发的女人|老女人',
    ],
    minor: ['二十多岁的人|二十多岁'],
    crowds: ['一个人|有人|众人'],
  },
  {
    source: '鲁迅《故乡》',
    file: 'guxiang.txt',
    main: ['我|迅哥儿|迅哥|老爷', '母亲', '闰土', '杨二嫂|豆腐西施|圆规', '宏儿'],
    minor: ['水生', '闰土的父亲'],
  },
  {
    source: '鲁迅《祝福》',
    file: 'zhufu.txt',
    main: [
      '我',
      '祥林嫂|她|乞丐',
      '鲁四老爷|四叔|四老爷',
      '四婶|四太太',
      '卫老婆子|卫若婆子|卫家婆子',
      '柳妈',
      '短工',
    ],
    minor: ['婆婆|祥林嫂的婆婆'],
    crowds: ['人们|众人|镇上的人|男人|女人们|老女人'],
  },
  {
    source: '老舍《骆驼祥子》第一至五章',
    file: 'luotuo.txt',
    main: [
      '祥子|骆驼祥子|骆驼',
      '刘四爷|刘四|四爷|老头子',
      '虎妞|虎姑娘|刘姑娘',
      '老者|老头|老头儿|老人',
      '杨太太|太太|大太太|二太太',
    ],
    minor: [
      '杨先生',
      '张妈',
      '曹先生',
      '兵|大兵|兵们|几个兵',
      '车夫|车夫们|拉车的|老车夫|年轻的车夫|几个车夫',
      '坐车的|客人|座儿|买主',
      '矮子|光头的矮子|光头|光头的小伙子',
      '铺主',
      '巡警',
    ],
    crowds: ['人们|众人|有人|大家'],
  },
  {
    source: '曹雪芹《红楼梦》第四回',
    file: 'honglou4.txt',
    main: ['贾雨村|雨村', '门子', '薛姨妈|母亲|薛王氏', '薛蟠'],
    minor: ['原告|冯家|冯家的人', '王夫人', '李纨', '黛玉|林黛玉', '贾母', '贾政'],
  },
  {
    source: '施耐庵《水浒传》第二十二回',
    file: 'shuihu22.txt',
    main: [
      '武松|武二|武二郎|二郎|武都头|叔叔|兄弟',
      '宋江',
      '柴进|柴大官人|大官人',
      '酒家|店家|主人家',
      '猎户|两个猎户|那个人',
    ],
    minor: ['武大|武大郎|哥哥|一个人', '宋清', '庄客', '知县', '那汉|大汉', '众上户|上户'],
    crowds: ['众人|众乡夫|乡夫', '猎户们'],
  },
];

/** A book's paragraphs, one a line, as the import would give them. */
export function castParagraphs(book: CastBook): string[] {
  return readFileSync(new URL(`./cast/${book.file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((p) => p.trim());
}

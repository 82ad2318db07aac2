import type { SelfCheckFigures, SentenceCheck } from '@vw/contract';

/** Speech that checks itself: the automatic check of each synthesised sentence (TTS, audiobooks). */
export const selfCheck = {
  flagged: '朗读有出入',
  problem: {
    dropped: '漏读',
    repeated: '重复朗读',
    extra: '多读',
    different: '与原文不符',
  } satisfies Record<NonNullable<SentenceCheck['problem']>, string>,
  heard: (heard: string) => `识别为「${heard || '（没有听到文字）'}」`,
  refunded: '已自动重试，仍有出入：这一句的积分已退还，可修改文字后重新生成。',
  summary: (f: SelfCheckFigures) =>
    `自动校对：已逐句识别 ${f.checked} 句` +
    (f.regenerated ? `，自动重新生成 ${f.regenerated} 句` : '') +
    (f.flagged ? `，${f.flagged} 句仍有出入（积分已退还）` : '，全部通过'),
  notRun: '未进行自动校对：需要已安装语音识别，且只校对神经网络音色（标准引擎按规则朗读，不会漏读或重复）',
  historyFlagged: (n: number) => `${n} 句朗读有出入`,
};

import { render, screen, within } from '@testing-library/react';
import type { TtsSentence } from '@vw/contract';
import { describe, expect, it } from 'vitest';
import { zhCN } from '@/locales/zh-CN.ts';
import SentenceList from './SentenceList.tsx';

/*
 * The speech self-check in the TTS result (issue 32 item 4): a sentence still wrong after the automatic
 * regenerations is marked with what the recognizer heard beside it; sentences that passed are not.
 */

const sentence = (index: number, text: string, check?: TtsSentence['check']): TtsSentence => ({
  index,
  text,
  start: 0,
  end: text.length,
  start_ms: index * 1000,
  end_ms: index * 1000 + 900,
  ...(check ? { check } : {}),
});

describe('SentenceList self-check', () => {
  it('shows what was heard beside a flagged sentence, and nothing beside the others', () => {
    render(
      <SentenceList
        sentences={[
          sentence(0, '今年是2024年。', {
            status: 'passed',
            cer: 0,
            heard: '今年是2024年',
            problem: null,
            attempts: 1,
            ms: 12,
          }),
          sentence(1, '今天天气很好。', {
            status: 'flagged',
            cer: 0.333,
            heard: '今天天气天气很好',
            problem: 'repeated',
            attempts: 3,
            ms: 40,
            failure_code: 5,
          }),
          sentence(2, '没有识别的一句。'),
        ]}
        activeIndex={undefined}
        onSeek={() => undefined}
        onRegenerate={async () => undefined}
      />,
    );
    const rows = screen.getAllByTestId('sentence');
    expect(rows.map((r) => r.getAttribute('data-check'))).toEqual(['passed', 'flagged', '']);
    const flag = within(rows[1]!).getByTestId('sentence-flag');
    expect(flag.textContent).toContain(zhCN.selfCheck.problem.repeated);
    expect(flag.textContent).toContain('识别为「今天天气天气很好」');
    expect(flag.getAttribute('title')).toBe(zhCN.selfCheck.refunded);
    expect(within(rows[0]!).queryByTestId('sentence-flag')).toBeNull();
    expect(within(rows[2]!).queryByTestId('sentence-flag')).toBeNull();
  });

  it('states the job figures, or plainly that no check ran', () => {
    const figures = { ran: true, checked: 4, regenerated: 2, flagged: 1, mean_cer: 0.08, ms: 120 };
    expect(zhCN.selfCheck.summary(figures)).toBe(
      '自动校对：已逐句识别 4 句，自动重新生成 2 句，1 句仍有出入（积分已退还）',
    );
    expect(zhCN.selfCheck.summary({ ...figures, regenerated: 0, flagged: 0 })).toBe(
      '自动校对：已逐句识别 4 句，全部通过',
    );
    expect(zhCN.selfCheck.notRun).not.toMatch(/[A-Z_]{4,}/);
  });
});

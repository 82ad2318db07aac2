import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { daysBetween, niceCeil, UsageChart } from './UsageChart.tsx';

describe('usage chart', () => {
  it('axis top reads well in quarters', () => {
    expect([0, 1, 3, 7, 203, 1200, 8000, 9001].map(niceCeil)).toEqual([1, 1, 4, 8, 400, 2000, 8000, 10_000]);
  });
  it('lists every day of the range, across month ends', () => {
    expect(daysBetween('2025-01-30', '2025-02-02')).toEqual([
      '2025-01-30',
      '2025-01-31',
      '2025-02-01',
      '2025-02-02',
    ]);
  });
  it('stacks the credits of a day by tool and leaves empty days empty', () => {
    render(
      <UsageChart
        from="2025-03-01"
        to="2025-03-03"
        days={[
          { date: '2025-03-02', tool: 'tts', credits: 120 },
          { date: '2025-03-02', tool: 'voice_changer', credits: 35 },
        ]}
      />,
    );
    const cols = document.querySelectorAll('.vw-chart-col');
    expect([...cols].map((c) => (c as HTMLElement).dataset.total)).toEqual(['0', '155', '0']);
    expect(cols[1].querySelectorAll('.vw-chart-seg')).toHaveLength(2);
    expect(screen.getByText('文字转语音')).toBeTruthy();
    expect(screen.getByText('变声器')).toBeTruthy();
  });
  it('says when nothing was used', () => {
    render(<UsageChart from="2025-03-01" to="2025-03-02" days={[]} />);
    expect(screen.getByText('所选时间内没有消耗积分')).toBeTruthy();
  });
});

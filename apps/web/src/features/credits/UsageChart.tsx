import type { CreditTool } from '@vw/contract';
import { Tooltip } from 'antd';
import { creditToolNames, creditTools } from '@/lib/credits.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { formatCredits } from './format.ts';

export interface UsageDay {
  date: string;
  tool: CreditTool;
  credits: number;
}

/** One colour per tool, stable across renders and ranges. */
export const TOOL_COLORS: Record<CreditTool, string> = {
  tts: '#4f46e5',
  voice_changer: '#0ea5e9',
  voice_clone: '#a855f7',
  speech_to_text: '#14b8a6',
  subtitle_ocr: '#f59e0b',
  subtitle_erase: '#ef4444',
  dubbing: '#ec4899',
  video_translation: '#22c55e',
  audiobook: '#f97316',
  api: '#64748b',
};

/** The y axis top: the smallest 1, 2, 4, 6 or 8 × 10^k at or above `n`, so its quarters read well. */
export function niceCeil(n: number): number {
  if (n <= 0) return 1;
  const exp = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 4, 6, 8, 10]) if (m * exp >= n) return m * exp;
  return 10 * exp;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** Every day from `from` to `to` inclusive (`YYYY-MM-DD`, local), at most `max` days. */
export function daysBetween(from: string, to: string, max = 400): string[] {
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = to.split('-').map(Number);
  const cur = new Date(fy, fm - 1, fd);
  const end = new Date(ty, tm - 1, td);
  const out: string[] = [];
  while (cur <= end && out.length < max) {
    out.push(dayKey(cur));
    cur.setDate(cur.getDate() + 1);
  }
  return out;
}

/**
 * Daily credit use stacked by tool: a small hand-made CSS bar chart (no chart library).
 * `from`/`to` are the inclusive day range shown; days without use show as empty columns.
 */
export function UsageChart({ days, from, to }: { days: UsageDay[]; from: string; to: string }) {
  const dates = daysBetween(from, to);
  const byDate = new Map<string, Map<CreditTool, number>>();
  for (const d of days) {
    const m = byDate.get(d.date) ?? new Map<CreditTool, number>();
    m.set(d.tool, (m.get(d.tool) ?? 0) + d.credits);
    byDate.set(d.date, m);
  }
  const tools = creditTools.filter((tool) => days.some((d) => d.tool === tool && d.credits > 0));
  const totals = dates.map((date) => [...(byDate.get(date)?.values() ?? [])].reduce((a, b) => a + b, 0));
  const top = niceCeil(Math.max(0, ...totals));
  const ticks = [1, 0.75, 0.5, 0.25, 0].map((f) => top * f);
  const labelEvery = Math.max(1, Math.ceil(dates.length / 10));
  const empty = totals.every((v) => v === 0);

  return (
    <div className="vw-chart" data-testid="usage-chart">
      <div className="vw-chart-plot">
        <div className="vw-chart-axis">
          {ticks.map((v) => (
            <span key={v}>{formatCredits(v)}</span>
          ))}
        </div>
        <div className="vw-chart-area">
          <div className="vw-chart-grid">
            {ticks.map((v) => (
              <div key={v} />
            ))}
          </div>
          <div className="vw-chart-bars">
            {dates.map((date, i) => {
              const parts = tools
                .map((tool) => ({ tool, credits: byDate.get(date)?.get(tool) ?? 0 }))
                .filter((p) => p.credits > 0);
              const total = totals[i];
              const column = (
                <div key={date} className="vw-chart-col" data-date={date} data-total={total}>
                  <div className="vw-chart-stack" style={{ height: `${(total / top) * 100}%` }}>
                    {parts.map((p) => (
                      <div
                        key={p.tool}
                        className="vw-chart-seg"
                        style={{ flexGrow: p.credits, background: TOOL_COLORS[p.tool] }}
                      />
                    ))}
                  </div>
                </div>
              );
              return total > 0 ? (
                <Tooltip
                  key={date}
                  title={
                    <div className="vw-chart-tip">
                      <div className="vw-chart-tip-date">{date}</div>
                      {parts.map((p) => (
                        <div key={p.tool}>
                          <i style={{ background: TOOL_COLORS[p.tool] }} />
                          {creditToolNames[p.tool]}：{formatCredits(p.credits)}
                        </div>
                      ))}
                    </div>
                  }
                >
                  {column}
                </Tooltip>
              ) : (
                column
              );
            })}
          </div>
          {empty && <div className="vw-chart-empty">{zhCN.usage.chartEmpty}</div>}
        </div>
      </div>
      <div className="vw-chart-xaxis">
        {dates.map((date, i) => (
          <span key={date}>{i % labelEvery === 0 ? date.slice(5) : ''}</span>
        ))}
      </div>
      {tools.length > 0 && (
        <div className="vw-chart-legend">
          {tools.map((tool) => (
            <span key={tool}>
              <i style={{ background: TOOL_COLORS[tool] }} />
              {creditToolNames[tool]}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

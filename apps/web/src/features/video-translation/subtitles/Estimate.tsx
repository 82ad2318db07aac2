import type { CreditTool } from '@vw/contract/constants/credits.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { CreditEstimate, useCreditEstimate } from '../project/NewProjectShell.tsx';

const subtitleTools = zhCN.subtitleTools;

/** The cost estimate against the balance for `seconds` of video priced by `tool`. */
export function Estimate({
  tool,
  seconds,
  testId,
}: {
  tool: CreditTool;
  seconds: number | null;
  testId: string;
}) {
  const estimate = useCreditEstimate(tool, seconds);
  return (
    <CreditEstimate
      testId={testId}
      shown={seconds != null}
      data={estimate.data}
      fetching={estimate.isFetching}
      text={subtitleTools.estimate}
      insufficientId={`${testId}-insufficient`}
    />
  );
}

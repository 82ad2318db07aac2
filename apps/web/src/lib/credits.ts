import {
  type CreditSource,
  type CreditTool,
  creditSourceNames,
  creditToolNames,
} from '@vw/contract/constants/credits.ts';

// The contract's credit constants, from its zod-free module (the calls module would bring zod along).
export {
  CreditType,
  creditSourceNames,
  creditToolNames,
  ExportTaskStatus,
  FREE_LEVEL,
  REDEEM_CODE_LENGTH,
  SUBSCRIPTION_SHORTCUT_LEVEL,
} from '@vw/contract/constants/credits.ts';

export const creditSources = Object.keys(creditSourceNames) as CreditSource[];
export const creditTools = Object.keys(creditToolNames) as CreditTool[];

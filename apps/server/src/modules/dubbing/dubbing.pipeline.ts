import { definePipeline } from '../../tasks/index.ts';
import { type DubInput, dubInput, dubStages, finalCredits } from '../projects/stages/dub.ts';

/** The dubbing tools as presets of the dub stages (prepare → dub → render), one pipeline each. */
export const dubPipelines = {
  srt_dubbing: definePipeline<DubInput>({
    tool: 'srt_dubbing',
    input: dubInput,
    stages: dubStages('srt_dubbing'),
    finalCredits,
  }),
  dubbing: definePipeline<DubInput>({
    tool: 'dubbing',
    input: dubInput,
    stages: dubStages('dubbing'),
    finalCredits,
  }),
  synthesis: definePipeline<DubInput>({
    tool: 'synthesis',
    input: dubInput,
    stages: dubStages('synthesis'),
    finalCredits,
  }),
} as const;

export type DubTool = keyof typeof dubPipelines;

import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { editCues } from '../editor/document.ts';
import { FlaggedLines } from '../editor/SpokenNote.tsx';

/** After a dub finished, its flagged lines named before anything is downloaded (the editor marks them). */
export function ProjectFlags({ projectId }: { projectId: string }) {
  const project = useCall(api.getProject, { query: { project_id: projectId } }, { staleTime: 0 });
  const doc = project.data?.document;
  return doc ? <FlaggedLines cues={editCues(doc)} /> : null;
}

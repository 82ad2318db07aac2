import { useQuery } from '@tanstack/react-query';
import type { ProjectView } from '@vw/contract';
import { startDownloads } from '@/features/downloads/center.ts';
import { safeFileName } from '@/features/tts/downloads.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { queryClient, useCall } from '@/lib/query/index.ts';
import { taskOutputDownload } from '../dubbing/TaskOutputs.tsx';
import { languagesLabel } from './model.ts';

/**
 * The languages of a translation project in the list ("自动识别 → 英语"). The list's rows do not carry
 * them, so the row reads its document's translation settings (cached; ten rows a page).
 */
export function ProjectLanguages({ project }: { project: ProjectView }) {
  const langs = useCall(api.videoTranslationLanguages, undefined, { staleTime: 60_000, suppressError: true });
  // Not under getProject's key: the editor loads that key once and must never get an older copy.
  const settings = useQuery(
    {
      queryKey: ['vt-project-languages', project.project_id],
      queryFn: ({ signal }) =>
        http
          .request(
            api.getProject,
            { query: { project_id: project.project_id } },
            { signal, suppressError: true },
          )
          .then((d) => d.document.translation ?? null),
      staleTime: Number.POSITIVE_INFINITY,
    },
    queryClient,
  );
  const t = settings.data;
  if (!t) return <span className="vw-vt-muted">—</span>;
  const names = [...(langs.data?.source ?? []), ...(langs.data?.target ?? [])];
  return (
    <span className="vw-vt-langs" data-testid="project-languages">
      {languagesLabel(t.source_language, t.target_language, names)}
    </span>
  );
}

/**
 * 下载 in the list: the finished video and files of the project's task, or — when its latest task made
 * none (a line re-dubbed) — the bilingual SRT.
 */
export async function downloadTranslation(project: ProjectView) {
  const task = project.task_id
    ? await http
        .request(api.getTask, { query: { task_id: project.task_id } }, { suppressError: true })
        .then((d) => d.task)
        .catch(() => null)
    : null;
  const outputs = task?.outputs ?? [];
  if (outputs.length > 0) {
    return startDownloads(outputs.map((o) => taskOutputDownload(task!, o)));
  }
  return startDownloads([
    {
      id: `${project.project_id}-bilingual-srt`,
      urlResolver: async () =>
        (
          await http.request(
            api.videoTranslationExport,
            { body: { project_id: project.project_id, format: 'srt', lines: 'bilingual' } },
            { suppressError: true },
          )
        ).url,
      fileName: safeFileName(project.name),
      ext: 'srt',
      downloadTaskType: 'srt',
    },
  ]);
}

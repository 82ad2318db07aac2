import { QueryClient, useQuery } from '@tanstack/react-query';
import type { ProjectDocument } from '@vw/contract/calls/projects.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { ApiError } from '@/lib/http/errors.ts';

/*
 * The editor's calls, in one place: the lead switches these to lib/query (useCall /
 * useCallMutation) when that lands. Until then: TanStack Query over the typed client with a
 * client of its own.
 */

export const editorQueryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/**
 * The project: document, version, media. Loaded once; never refetched behind the user's back
 * (a refetch would replace unsaved edits) — `refetch` is the explicit reload after a conflict.
 */
export function useProject(projectId: string) {
  return useQuery({
    queryKey: ['getProject', { project_id: projectId }],
    queryFn: ({ signal }) => loadProject(projectId, signal),
    enabled: projectId !== '',
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export type ProjectData = Awaited<ReturnType<typeof loadProject>>;

/**
 * Opens a project by its id — or by the id of one of its tasks: a finished task's notification
 * (action video-edit, spec §2) opens the editor with the task id.
 */
export async function loadProject(id: string, signal?: AbortSignal) {
  try {
    return await http.request(api.getProject, { query: { project_id: id } }, { signal, suppressError: true });
  } catch (error) {
    if (!(error instanceof ApiError) || error.kind === 'network') throw error;
    const task = await http
      .request(api.getTask, { query: { task_id: id } }, { signal, suppressError: true })
      .then((d) => d.task)
      .catch(() => null);
    if (!task?.project_id) throw error;
    return http.request(api.getProject, { query: { project_id: task.project_id } }, { signal });
  }
}

/** Waveform peaks of the project's media (none while the asset is still processing). */
export function usePeaks(assetId: string | null | undefined) {
  return useQuery({
    queryKey: ['getMediaPeaks', { asset_id: assetId }],
    queryFn: ({ signal }) =>
      http.request(api.getMediaPeaks, { query: { asset_id: assetId! } }, { signal, suppressError: true }),
    enabled: !!assetId,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Saves the whole document with the version it was based on; errors are handled by the caller. */
export const saveProject = (projectId: string, version: number, document: ProjectDocument) =>
  http.request(
    api.saveProject,
    { body: { project_id: projectId, version, document } },
    { suppressError: true },
  );

export const renameProject = (projectId: string, name: string) =>
  http.request(api.renameProject, { body: { project_id: projectId, name } });

export type ExportOptions = {
  format: 'txt' | 'srt' | 'vtt' | 'json' | 'docx';
  speakers: boolean;
  timestamps: boolean;
};

export const exportProject = (projectId: string, options: ExportOptions) =>
  http.request(api.exportProject, { body: { project_id: projectId, ...options } });

import { type QueryKey, useQuery } from '@tanstack/react-query';
import type { ProjectDocument } from '@vw/contract/calls/projects.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { ApiError } from '@/lib/http/errors.ts';
import { callKey, queryClient, useCall, useCallMutation } from '@/lib/query/index.ts';

/*
 * The editor's calls, in one place, on the app's query cache (lib/query): `useCall` /
 * `useCallMutation` over the typed client; the project load keeps its own loader (a task id falls
 * back to the task's project) under the call's key in the same client.
 */

/**
 * The project: document, version, media. Loaded once; never refetched behind the user's back
 * (a refetch would replace unsaved edits) — `refetch` is the explicit reload after a conflict.
 */
export function useProject(projectId: string) {
  return useQuery<ProjectData, ApiError, ProjectData, QueryKey>(
    {
      queryKey: callKey(api.getProject, { query: { project_id: projectId } }) as unknown as QueryKey,
      queryFn: ({ signal }) => loadProject(projectId, signal),
      enabled: projectId !== '',
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 0,
    },
    queryClient,
  );
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
  return useCall(
    api.getMediaPeaks,
    { query: { asset_id: assetId ?? '' } },
    { enabled: !!assetId, staleTime: Number.POSITIVE_INFINITY, suppressError: true },
  );
}

/** Saves the whole document with the version it was based on; errors are handled by the caller. */
export function useSaveProject(projectId: string) {
  const m = useCallMutation(api.saveProject, { suppressError: true });
  return (version: number, document: ProjectDocument) =>
    m.mutateAsync({ body: { project_id: projectId, version, document } });
}

/** Renames the project; the project lists show the new name. */
export function useRenameProject(projectId: string) {
  const m = useCallMutation(api.renameProject, { invalidates: [api.listProjects] });
  return (name: string) => m.mutateAsync({ body: { project_id: projectId, name } });
}

export type ExportOptions = {
  format: 'txt' | 'srt' | 'vtt' | 'json' | 'docx';
  speakers: boolean;
  timestamps: boolean;
};

/** Exports the saved document: a signed link to the file. */
export function useExportProject(projectId: string) {
  const m = useCallMutation(api.exportProject);
  return (options: ExportOptions) => m.mutateAsync({ body: { project_id: projectId, ...options } });
}

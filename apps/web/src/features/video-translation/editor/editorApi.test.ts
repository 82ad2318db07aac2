import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/lib/api.ts';
import { getCallData, queryClient, setCallData } from '@/lib/query/index.ts';
import { loadProject, usePeaks, useProject, useRenameProject } from './editorApi.ts';

const envelope = (code: number, data: unknown, msg = 'ok') =>
  new Response(JSON.stringify({ code, msg, data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

afterEach(() => vi.unstubAllGlobals());

describe('loadProject', () => {
  it('opens a project by its id', async () => {
    const fetch = vi.fn(async (_url: string) => envelope(0, { project: { project_id: 'p1' }, version: 1 }));
    vi.stubGlobal('fetch', fetch);
    const d = await loadProject('p1');
    expect(d.project.project_id).toBe('p1');
    expect(String(fetch.mock.calls[0]![0])).toContain('/v1/projects/get?project_id=p1');
  });

  it("opens a task's project when given a task id (a notification's video-edit action)", async () => {
    const fetch = vi.fn(async (url: string) => {
      if (url.includes('/v1/projects/get?project_id=t9'))
        return envelope(422, { detail: [{ type: 'err_not_found', msg: 'not found' }] }, 'not found');
      if (url.includes('/v1/tasks/get?task_id=t9'))
        return envelope(0, { task: { task_id: 't9', project_id: 'p7' } });
      if (url.includes('/v1/projects/get?project_id=p7'))
        return envelope(0, { project: { project_id: 'p7' } });
      throw new Error(`unexpected ${url}`);
    });
    vi.stubGlobal('fetch', fetch);
    const d = await loadProject('t9');
    expect(d.project.project_id).toBe('p7');
  });

  it('fails with the project error when the id is neither', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        envelope(422, { detail: [{ type: 'err_not_found', msg: 'not found' }] }, 'not found'),
      ),
    );
    await expect(loadProject('zz')).rejects.toMatchObject({ type: 'err_not_found' });
  });
});

describe('editor loads on the app query cache', () => {
  it("keeps the project under getProject's key and does not refetch it on a remount", async () => {
    const fetch = vi.fn(async (_url: string) => envelope(0, { project: { project_id: 'p1' }, version: 2 }));
    vi.stubGlobal('fetch', fetch);
    const first = renderHook(() => useProject('p1'));
    await waitFor(() => expect(first.result.current.isSuccess).toBe(true));
    expect(getCallData(api.getProject, { query: { project_id: 'p1' } })).toMatchObject({ version: 2 });
    const again = renderHook(() => useProject('p1'));
    expect(again.result.current.data?.version).toBe(2);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('loads no peaks without an asset', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { result } = renderHook(() => usePeaks(null));
    expect(result.current.fetchStatus).toBe('idle');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a rename makes the project lists stale', async () => {
    const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
      if (url.includes('/v1/projects/rename'))
        return envelope(0, { project: { project_id: 'p1', name: '新' } });
      throw new Error(`unexpected ${url}`);
    });
    vi.stubGlobal('fetch', fetch);
    const listInput = { query: { tool: 'stt' as const, page: 1, page_size: 20 } };
    setCallData(api.listProjects, listInput, { total: 0, list: [] });
    const { result } = renderHook(() => useRenameProject('p1'));
    let renamed: unknown;
    await act(async () => {
      renamed = await result.current('新');
    });
    expect(renamed).toMatchObject({ project: { name: '新' } });
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toEqual({ project_id: 'p1', name: '新' });
    const lists = queryClient.getQueryCache().findAll({ queryKey: [api.listProjects.path] });
    expect(lists).toHaveLength(1);
    expect(lists[0]!.state.isInvalidated).toBe(true);
  });
});

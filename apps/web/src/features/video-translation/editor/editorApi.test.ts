import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadProject } from './editorApi.ts';

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

import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, stubApi } from '@/test/fakeApi.ts';
import { api } from '../api.ts';
import { ApiError } from '../http/errors.ts';
import { queryClient, shouldRetry } from './client.ts';
import { getCallData, invalidateCall, setCallData, useCall, useCallMutation } from './hooks.ts';
import { callKey } from './keys.ts';

afterEach(() => vi.unstubAllGlobals());

const project = (id: string, name: string) => ({
  project_id: id,
  tool: 'stt' as const,
  name,
  status: 'succeeded' as const,
  progress: 100,
  task_id: null,
  source_asset_id: null,
  duration_ms: 1000,
  cover_url: '',
  engine_label: '',
  created_time: 1,
  updated_time: 1,
});

function Projects({ tool = 'stt' as const }) {
  const q = useCall(api.listProjects, { query: { tool, page: 1, page_size: 20 } });
  if (q.isPending) return <p>loading</p>;
  if (q.isError) return <p>error {q.error.code}</p>;
  return (
    <ul>
      {q.data.list.map((p) => (
        <li key={p.project_id}>{p.name}</li>
      ))}
    </ul>
  );
}

const remover: { current: ReturnType<typeof useCallMutation<typeof api.deleteProject>> | null } = {
  current: null,
};
function Remover() {
  remover.current = useCallMutation(api.deleteProject, { invalidates: [api.listProjects] });
  return null;
}

describe('lib/query', () => {
  it('keys a call by its path and input; one request for components asking the same', async () => {
    const server = stubApi({ '/v1/projects/list': () => ({ total: 1, list: [project('p1', '会议录音')] }) });
    render(
      <>
        <Projects />
        <Projects />
      </>,
    );
    expect(await screen.findAllByText('会议录音')).toHaveLength(2);
    expect(server.count('/v1/projects/list')).toBe(1);
    expect(server.calls[0].query).toEqual({ tool: 'stt', page: '1', page_size: '20' });
    expect(callKey(api.listProjects, { query: { tool: 'stt' } })).toEqual([
      '/v1/projects/list',
      { query: { tool: 'stt' }, body: null },
    ]);
    expect(callKey(api.getToolCapabilities)).toEqual(['/v1/tools/capabilities']);
  });

  it('does not retry a business error; retries only transient failures', async () => {
    const server = stubApi({ '/v1/projects/list': () => envelope(1011, 'no access') });
    render(<Projects />);
    expect(await screen.findByText('error 1011')).toBeTruthy();
    expect(server.count('/v1/projects/list')).toBe(1);
    const net = new ApiError({ kind: 'network', display: { kind: 'network', text: 'x' } });
    const http500 = new ApiError({ kind: 'http', httpStatus: 502, display: { kind: 'message', text: 'x' } });
    const http404 = new ApiError({ kind: 'http', httpStatus: 404, display: { kind: 'message', text: 'x' } });
    const business = new ApiError({ kind: 'business', code: 1010, display: { kind: 'credit', text: 'x' } });
    expect(shouldRetry(0, net)).toBe(true);
    expect(shouldRetry(1, http500)).toBe(true);
    expect(shouldRetry(2, net)).toBe(false);
    expect(shouldRetry(0, http404)).toBe(false);
    expect(shouldRetry(0, business)).toBe(false);
    expect(shouldRetry(0, new Error('boom'))).toBe(false);
  });

  it('a mutation invalidates the calls it names, and the shown list refetches', async () => {
    let names = ['一', '二'];
    const server = stubApi({
      '/v1/projects/list': () => ({ total: names.length, list: names.map((n, i) => project(`p${i}`, n)) }),
      '/v1/projects/delete': () => {
        names = names.slice(1);
        return { deleted: 1 };
      },
    });
    render(
      <>
        <Projects />
        <Remover />
      </>,
    );
    expect(await screen.findByText('一')).toBeTruthy();
    await act(async () => {
      await remover.current!.mutateAsync({ body: { project_id: 'p0' } });
    });
    await waitFor(() => expect(screen.queryByText('一')).toBeNull());
    expect(screen.getByText('二')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/v1/projects/delete')?.body).toEqual({ project_id: 'p0' });
    expect(server.count('/v1/projects/list')).toBe(2);
  });

  it('setCallData writes into the cache the hooks read; invalidateCall refetches by prefix', async () => {
    const server = stubApi({ '/v1/projects/list': () => ({ total: 1, list: [project('p1', '旧名')] }) });
    render(<Projects />);
    expect(await screen.findByText('旧名')).toBeTruthy();
    const input = { query: { tool: 'stt' as const, page: 1, page_size: 20 } };
    act(() => setCallData(api.listProjects, input, { total: 1, list: [project('p1', '新名')] }));
    expect(await screen.findByText('新名')).toBeTruthy();
    expect(getCallData(api.listProjects, input)?.list[0].name).toBe('新名');
    await act(() => invalidateCall(api.listProjects));
    expect(await screen.findByText('旧名')).toBeTruthy();
    expect(server.count('/v1/projects/list')).toBe(2);
    expect(queryClient.getDefaultOptions().queries?.refetchOnWindowFocus).toBe(false);
  });
});

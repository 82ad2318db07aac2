import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { MediaAsset } from '@vw/contract';
import { App } from 'antd';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUploadGuardStore } from '@/stores/upload.ts';
import { envelope, stubApi } from '@/test/fakeApi.ts';
import { StorageKey } from '../auth/storage.ts';
import { http } from '../http/client.ts';
import { fileFingerprint, loadS3Upload, partTransport } from './s3.ts';
import { UploadDropzone } from './UploadDropzone.tsx';
import { startUpload, type UploadPhase } from './uploader.ts';
import { SpeedMeter } from './useUpload.ts';

// A fake tus-js-client: the test drives progress, success and errors of each upload it creates.
const tus = vi.hoisted(() => {
  type Options = Record<string, unknown> & {
    onProgress: (a: number, b: number) => void;
    onSuccess: () => void;
    onError: (e: Error) => void;
    onBeforeRequest: (req: { setHeader: (k: string, v: string) => void }) => void;
  };
  const uploads: Array<{
    file: File;
    options: Options;
    starts: number;
    aborts: boolean[];
    resumedFrom: unknown;
    url: string | null;
  }> = [];
  return { uploads, previous: [] as unknown[] };
});
vi.mock('tus-js-client', () => ({
  Upload: class {
    file: File;
    options: never;
    starts = 0;
    aborts: boolean[] = [];
    resumedFrom: unknown = null;
    url: string | null = null;
    constructor(file: File, options: never) {
      this.file = file;
      this.options = options;
      tus.uploads.push(this as never);
    }
    start() {
      this.starts++;
    }
    abort(terminate = false) {
      this.aborts.push(terminate);
      return Promise.resolve();
    }
    findPreviousUploads() {
      return Promise.resolve(tus.previous);
    }
    resumeFromPreviousUpload(p: unknown) {
      this.resumedFrom = p;
    }
  },
}));

const asset = (over: Partial<MediaAsset> = {}): MediaAsset => ({
  asset_id: 'ast_1',
  name: 'clip.mp3',
  kind: 'audio',
  mime: 'audio/mpeg',
  size: 10,
  duration_ms: 90_000,
  width: null,
  height: null,
  has_audio: true,
  has_video: false,
  sha256: 'x',
  status: 'ready',
  url: '/files/x',
  thumbnail_url: '',
  created_time: 1,
  ...over,
});
const file = (size = 10, name = 'clip.mp3', type = 'audio/mpeg') =>
  new File([new Uint8Array(size)], name, { type, lastModified: 1_700_000_000_000 });
const limits = {
  max_upload_bytes: 1024 * 1024,
  max_duration_seconds: 3600,
  max_width: 3840,
  max_height: 2160,
};

let server: ReturnType<typeof stubApi>;
let ticket: unknown;
beforeEach(() => {
  tus.uploads.length = 0;
  tus.previous = [];
  localStorage.setItem(StorageKey.accessToken, 'tok_up');
  useUploadGuardStore.getState().setLeaveAllowed(false);
  ticket = {
    provider: 'tus',
    endpoint: '/v1/uploads/tus',
    max_size: 1024 * 1024,
    chunk_size: 8 * 1024 * 1024,
  };
  server = stubApi({
    '/v1/misc/generate_obs_temporary_credentials': () => ticket,
    '/v1/media/complete_upload': () => ({ asset: asset() }),
    '/v1/tools/capabilities': () => ({ features: {}, limits, tools: [] }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lastTus = () => tus.uploads[tus.uploads.length - 1];
/** The dropzone guards leaving, so it lives under a data router. */
const inRouter = (element: React.ReactNode) =>
  render(
    <App>
      <RouterProvider router={createMemoryRouter([{ path: '/', element }])} />
    </App>,
  );

describe('tus uploads', { timeout: 15_000 }, () => {
  it('asks for a ticket, uploads with the token and a stored fingerprint, shows progress, pauses, resumes and registers the asset', async () => {
    const onUploaded = vi.fn();
    inRouter(<UploadDropzone accept="audio/*,video/*" onUploaded={onUploaded} />);
    expect((await screen.findByTestId('upload-limit')).textContent).toBe(
      '单个文件不超过 1 MB，时长不超过 60 分钟',
    );
    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file()] } });
    await waitFor(() => expect(lastTus()?.starts).toBe(1));
    expect(server.calls.find((c) => c.path === '/v1/misc/generate_obs_temporary_credentials')?.body).toEqual({
      name: 'clip.mp3',
      size: 10,
      content_type: 'audio/mpeg',
    });
    const up = lastTus();
    expect(up.options.endpoint).toBe(`${window.location.origin}/v1/uploads/tus`);
    expect(up.options.chunkSize).toBe(8 * 1024 * 1024);
    expect(up.options.storeFingerprintForResuming).toBe(true);
    const headers: Record<string, string> = {};
    up.options.onBeforeRequest({ setHeader: (k, v) => (headers[k] = v) });
    expect(headers.Authorization).toBe('Bearer tok_up');

    act(() => up.options.onProgress(4, 10));
    expect(screen.getByTestId('upload-percent').textContent).toContain('40%');
    expect(screen.getByTestId('upload-status').textContent).toBe('上传中');

    fireEvent.click(screen.getByTestId('upload-pause'));
    expect(up.aborts).toEqual([false]);
    expect(screen.getByTestId('upload-progress').dataset.phase).toBe('paused');
    fireEvent.click(screen.getByTestId('upload-resume'));
    expect(up.starts).toBe(2);
    expect(screen.getByTestId('upload-progress').dataset.phase).toBe('uploading');

    act(() => {
      up.options.onProgress(10, 10);
      up.url = 'http://localhost/v1/uploads/tus/abc123';
      up.options.onSuccess();
    });
    await waitFor(() => expect(onUploaded).toHaveBeenCalled());
    expect(onUploaded.mock.calls[0][0].asset_id).toBe('ast_1');
    expect(server.calls.find((c) => c.path === '/v1/media/complete_upload')?.body).toEqual({
      tus_upload: 'http://localhost/v1/uploads/tus/abc123',
    });
    expect(screen.getByTestId('upload-progress').dataset.phase).toBe('done');
  });

  it('resumes the upload a reload left behind, and cancel terminates it', async () => {
    tus.previous = [{ uploadUrl: 'http://localhost/v1/uploads/tus/old', size: 10 }];
    const phases: UploadPhase[] = [];
    const s = startUpload(file(), { onProgress: () => undefined, onPhase: (p) => phases.push(p) });
    await waitFor(() => expect(lastTus()?.starts).toBe(1));
    expect(lastTus().resumedFrom).toEqual(tus.previous[0]);
    s.cancel();
    await expect(s.done).rejects.toThrow('upload cancelled');
    expect(lastTus().aborts).toEqual([true]);
    await waitFor(() => expect(phases.at(-1)).toBe('cancelled'));
  });

  it('asks again when completing meets a restarting server, and shows one error when it refuses', async () => {
    let answers = [new Response('bad gateway', { status: 502 })] as unknown[];
    server = stubApi({
      '/v1/misc/generate_obs_temporary_credentials': () => ticket,
      '/v1/media/complete_upload': () => answers.shift() ?? { asset: asset() },
    });
    const onError = vi.fn();
    http.hooks.onError = onError;
    const finish = async () => {
      const s = startUpload(file(), { onProgress: () => undefined, onPhase: () => undefined });
      await waitFor(() => expect(lastTus()?.starts).toBe(1));
      lastTus().url = 'http://localhost/v1/uploads/tus/abc123';
      lastTus().options.onSuccess();
      return s.done;
    };
    expect((await finish()).asset_id).toBe('ast_1');
    expect(server.count('/v1/media/complete_upload')).toBe(2);
    expect(onError).not.toHaveBeenCalled();

    // A refusal is not asked again, and is shown once.
    answers = [
      envelope(422, '不支持该文件格式', {
        detail: [{ type: 'err_file_not_supported', msg: '不支持该文件格式' }],
      }),
    ];
    await expect(finish()).rejects.toThrow('不支持该文件格式');
    expect(server.count('/v1/media/complete_upload')).toBe(3);
    expect(onError).toHaveBeenCalledTimes(1);
    delete http.hooks.onError;
  });

  it('refuses an empty file, a wrong type and a file over the plan limit before uploading', async () => {
    inRouter(<UploadDropzone accept="audio/*,video/*" onUploaded={vi.fn()} />);
    await screen.findByTestId('upload-limit');
    const input = screen.getByTestId('upload-input');
    fireEvent.change(input, { target: { files: [file(0)] } });
    expect(screen.getByTestId('upload-refused').textContent).toBe('文件是空的');
    fireEvent.change(input, { target: { files: [file(10, 'a.pdf', 'application/pdf')] } });
    expect(screen.getByTestId('upload-refused').textContent).toBe('不支持这种文件格式');
    fireEvent.change(input, { target: { files: [file(2 * 1024 * 1024)] } });
    expect(screen.getByTestId('upload-refused').textContent).toBe(
      '文件超过 1 MB 的上限，请压缩或剪短后再上传',
    );
    expect(server.count('/v1/misc/generate_obs_temporary_credentials')).toBe(0);
  });

  it('drops a file onto the zone', async () => {
    inRouter(<UploadDropzone accept="audio/*" onUploaded={vi.fn()} />);
    fireEvent.drop(screen.getByTestId('upload-dropzone'), { dataTransfer: { files: [file()] } });
    await waitFor(() => expect(lastTus()?.starts).toBe(1));
  });
});

describe('presigned S3 parts', () => {
  const s3Ticket = (id: string) => ({
    provider: 's3',
    upload_id: id,
    part_size: 4,
    parts: [1, 2, 3].map((n) => ({ part_number: n, url: `https://bucket.example/${id}/${n}` })),
    expires_in: 3600,
    max_size: 1024,
  });

  it('keeps part ETags so a second attempt (a reload) sends only the missing parts of the same upload', async () => {
    ticket = s3Ticket('up_1');
    const sent: string[] = [];
    let failPart2 = true;
    vi.spyOn(partTransport, 'put').mockImplementation(async (url, body, onProgress) => {
      if (url.endsWith('/2') && failPart2) throw new Error('part upload failed: network');
      sent.push(url);
      onProgress(body.size);
      return `"etag-${url.slice(-1)}"`;
    });
    const f = file(10);
    const first = startUpload(f, { onProgress: () => undefined, onPhase: () => undefined });
    await expect(first.done).rejects.toThrow('network');
    expect(sent).toEqual(['https://bucket.example/up_1/1']);
    expect(loadS3Upload(fileFingerprint(f))?.etags).toEqual({ 1: '"etag-1"' });

    failPart2 = false;
    ticket = s3Ticket('up_2'); // a fresh ticket is issued, but the stored upload goes on
    const progress: number[] = [];
    const second = startUpload(f, { onProgress: (l) => progress.push(l), onPhase: () => undefined });
    await expect(second.done).resolves.toMatchObject({ asset_id: 'ast_1' });
    expect(sent).toEqual([
      'https://bucket.example/up_1/1',
      'https://bucket.example/up_1/2',
      'https://bucket.example/up_1/3',
    ]);
    expect(progress[0]).toBe(4);
    expect(progress.at(-1)).toBe(10);
    expect(server.calls.filter((c) => c.path === '/v1/media/complete_upload').at(-1)?.body).toEqual({
      upload_id: 'up_1',
      parts: [
        { part_number: 1, etag: '"etag-1"' },
        { part_number: 2, etag: '"etag-2"' },
        { part_number: 3, etag: '"etag-3"' },
      ],
    });
    expect(loadS3Upload(fileFingerprint(f))).toBeNull();
  });

  it('pause aborts the part in flight; resume sends it again', async () => {
    ticket = s3Ticket('up_p');
    const attempts: string[] = [];
    let hold = true;
    vi.spyOn(partTransport, 'put').mockImplementation(
      (url, _body, _p, signal) =>
        new Promise((resolve, reject) => {
          attempts.push(url);
          if (!hold) return resolve('"e"');
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const phases: UploadPhase[] = [];
    const s = startUpload(file(10), { onProgress: () => undefined, onPhase: (p) => phases.push(p) });
    await waitFor(() => expect(attempts).toHaveLength(1));
    s.pause();
    expect(phases.at(-1)).toBe('paused');
    await new Promise((r) => setTimeout(r, 20));
    expect(attempts).toHaveLength(1);
    hold = false;
    s.resume();
    await expect(s.done).resolves.toMatchObject({ asset_id: 'ast_1' });
    expect(attempts).toEqual([
      'https://bucket.example/up_p/1',
      'https://bucket.example/up_p/1',
      'https://bucket.example/up_p/2',
      'https://bucket.example/up_p/3',
    ]);
    expect(phases.at(-1)).toBe('done');
  });
});

describe('upload leave guard (spec §4)', { timeout: 15_000 }, () => {
  const mount = () => {
    const router = createMemoryRouter(
      [
        {
          path: '/a',
          element: (
            <>
              <Link to="/b">去别处</Link>
              <UploadDropzone onUploaded={vi.fn()} />
            </>
          ),
        },
        { path: '/b', element: <p>别处</p> },
      ],
      { initialEntries: ['/a'] },
    );
    render(
      <App>
        <RouterProvider router={router} />
      </App>,
    );
    return router;
  };
  const unload = () => {
    const e = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(e);
    return e.defaultPrevented;
  };

  it('asks before leaving during an upload; staying keeps the page', async () => {
    const router = mount();
    expect(unload()).toBe(false);
    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file()] } });
    await waitFor(() => expect(lastTus()?.starts).toBe(1));
    expect(unload()).toBe(true);
    fireEvent.click(screen.getByText('去别处'));
    fireEvent.click(await screen.findByTestId('upload-leave-stay'));
    await waitFor(() => expect(screen.queryByTestId('upload-leave-stay')).toBeNull());
    expect(router.state.location.pathname).toBe('/a');
    fireEvent.click(screen.getByText('去别处'));
    fireEvent.click(await screen.findByTestId('upload-leave-ok'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/b'));
  });

  it('lets the user leave without asking after a credit shortage of credit_type 3, and when the upload is done', async () => {
    const router = mount();
    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file()] } });
    await waitFor(() => expect(lastTus()?.starts).toBe(1));
    act(() => useUploadGuardStore.getState().setLeaveAllowed(true));
    expect(unload()).toBe(false);
    fireEvent.click(screen.getByText('去别处'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/b'));
    expect(screen.queryByTestId('upload-leave-ok')).toBeNull();
  });

  it('a new upload is guarded again', async () => {
    useUploadGuardStore.getState().setLeaveAllowed(true);
    mount();
    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file()] } });
    await waitFor(() => expect(lastTus()?.starts).toBe(1));
    expect(useUploadGuardStore.getState().leaveAllowed).toBe(false);
    expect(unload()).toBe(true);
    act(() => {
      lastTus().url = 'http://localhost/v1/uploads/tus/x';
      lastTus().options.onSuccess();
    });
    await waitFor(() => expect(screen.getByTestId('upload-progress').dataset.phase).toBe('done'));
    expect(unload()).toBe(false);
  });
});

describe('speed', () => {
  it('measures bytes per second over the last seconds', () => {
    const m = new SpeedMeter();
    expect(m.add(0, 0)).toBe(0);
    expect(m.add(1_000_000, 1000)).toBe(1_000_000);
    expect(m.add(3_000_000, 2000)).toBe(1_500_000);
    // old samples fall out of the window
    expect(m.add(3_000_000, 6000)).toBe(0);
  });
});

describe('upload error text', () => {
  it('maps refusals to Chinese: an envelope in the tus response, a 413, anything else', async () => {
    const { uploadErrorText } = await import('./UploadDropzone.tsx');
    const res = (status: number, body: string) => ({
      originalResponse: { getStatus: () => status, getBody: () => body },
    });
    expect(
      uploadErrorText(
        res(
          422,
          JSON.stringify({ code: 422, msg: 'x', data: { detail: [{ type: 'err_file_not_supported' }] } }),
        ),
      ),
    ).toBe('不支持该文件格式');
    expect(uploadErrorText(res(413, ''))).toBe('文件超过当前套餐的上传上限');
    expect(uploadErrorText(new Error('tus: failed to upload chunk'))).toBe(
      '上传中断，请检查网络后点击“重新上传”，已传部分会接着传',
    );
  });
});

import { openAsBlob } from 'node:fs';

/**
 * Push to an Audiobookshelf server with its upload API: `POST /api/upload` (multipart: title,
 * author, library, folder and the files; Bearer API token). Without a folder id the library's first
 * folder is used (`GET /api/libraries/:id`). Answers what happened instead of throwing: the export
 * itself succeeded either way.
 */
export async function pushToAudiobookshelf(
  server: { url: string; token: string; library_id: string; folder_id?: string },
  item: { file: string; fileName: string; title: string; author: string; signal?: AbortSignal },
): Promise<{ ok: boolean; message: string }> {
  const base = server.url.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${server.token}` };
  try {
    let folder = server.folder_id;
    if (!folder) {
      const res = await fetch(`${base}/api/libraries/${encodeURIComponent(server.library_id)}`, {
        headers,
        signal: item.signal,
      });
      if (!res.ok)
        return { ok: false, message: `读取书库失败（HTTP ${res.status}），请检查地址、令牌和书库 ID` };
      const library = (await res.json()) as { folders?: Array<{ id: string }> };
      folder = library.folders?.[0]?.id;
      if (!folder) return { ok: false, message: '该书库没有文件夹，请在 Audiobookshelf 中先添加文件夹' };
    }
    const form = new FormData();
    form.set('title', item.title);
    form.set('author', item.author);
    form.set('library', server.library_id);
    form.set('folder', folder);
    form.set('0', await openAsBlob(item.file), item.fileName);
    const res = await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers,
      body: form,
      signal: item.signal,
    });
    if (!res.ok) {
      const why =
        res.status === 403
          ? '令牌没有上传权限'
          : res.status === 404
            ? '书库或文件夹不存在'
            : res.status === 401
              ? '令牌无效'
              : `HTTP ${res.status}`;
      return { ok: false, message: `推送到 Audiobookshelf 失败：${why}` };
    }
    return { ok: true, message: '已推送到 Audiobookshelf' };
  } catch (err) {
    return { ok: false, message: `无法连接 Audiobookshelf 服务器：${(err as Error).message}` };
  }
}

import { BookOutlined, DeleteOutlined, ExportOutlined, FolderOpenOutlined } from '@ant-design/icons';
import type { AudiobookWork } from '@vw/contract';
import { Alert, Button, Empty, List, Popconfirm, Progress, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { invalidateCall, useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { UploadDropzone } from '@/lib/upload/UploadDropzone.tsx';
import { useUpload } from '@/lib/upload/useUpload.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useToolAvailability } from '../video-translation/useToolAvailability.ts';
import { ExportDialog } from './ExportDialog.tsx';
import './audio-book.css';

export const BOOK_ACCEPT = '.txt,.epub,.docx,.md,.markdown,.pdf';
/** The server's book size limit (audiobook.service BOOK_LIMITS.maxBytes). */
export const BOOK_MAX_BYTES = 100 * 1024 * 1024;
export const workPath = (id: string) => `/audio-book/work/${encodeURIComponent(id)}`;

const t = zhCN.audioBook;

function WorkRow({ work, onExport }: { work: AudiobookWork; onExport: () => void }) {
  const navigate = useNavigate();
  const { message } = useApp();
  const remove = useCallMutation(api.audiobookDelete, {
    invalidates: [api.audiobookList],
    onSuccess: () => message.success(t.deleted),
  });
  const percent = work.chapters_total ? Math.round((work.chapters_done / work.chapters_total) * 100) : 0;
  return (
    <List.Item
      data-testid="book-row"
      actions={[
        <Button
          key="open"
          type="link"
          icon={<FolderOpenOutlined />}
          onClick={() => navigate(workPath(work.work_id))}
        >
          {t.open}
        </Button>,
        <Button
          key="export"
          type="link"
          icon={<ExportOutlined />}
          onClick={onExport}
          disabled={work.chapters_done === 0 && work.duration_ms === 0}
        >
          {t.export}
        </Button>,
        <Popconfirm
          key="delete"
          title={t.deleteTitle}
          description={t.deleteBody}
          okText={t.delete}
          okButtonProps={{ danger: true }}
          cancelText={t.cancel}
          onConfirm={() => remove.mutate({ body: { work_id: work.work_id } })}
        >
          <Button type="link" danger icon={<DeleteOutlined />}>
            {t.delete}
          </Button>
        </Popconfirm>,
      ]}
    >
      <List.Item.Meta
        avatar={
          work.cover_url ? (
            <img className="vw-book-cover" src={work.cover_url} alt={t.cover} />
          ) : (
            <div className="vw-book-cover vw-book-cover-empty">
              <BookOutlined />
            </div>
          )
        }
        title={
          <Link to={workPath(work.work_id)} data-testid="book-title">
            {work.title}
          </Link>
        }
        description={
          <div className="vw-book-meta">
            {work.author && <span>{work.author}</span>}
            <span data-testid="book-chapters">
              {t.chapters} {work.chapters_done}/{work.chapters_total}
            </span>
            <Progress percent={percent} size="small" style={{ width: 120 }} />
            <span>
              {t.duration} {formatDuration(work.duration_ms / 1000)}
            </span>
            <span>
              {t.characters} {work.characters}
            </span>
            <Tag>{work.format.toUpperCase()}</Tag>
            <span className="vw-book-muted">
              {t.updatedAt(new Date(work.updated_time * 1000).toLocaleString('zh-CN'))}
            </span>
          </div>
        }
      />
    </List.Item>
  );
}

/** /audio-book: import a book file, then the works with their progress, open, export and delete. */
export function Component() {
  const navigate = useNavigate();
  const availability = useToolAvailability('audiobook');
  const [page, setPage] = useState(1);
  const works = useCall(api.audiobookList, { query: { page, page_size: 20 } });
  const [exporting, setExporting] = useState<string | null>(null);
  // A book is not media: the same resumable upload, completed by the import call.
  const upload = useUpload(async (body) => (await request(api.audiobookImport, { body })).work);
  return (
    <div className="vw-book-page" data-testid="audio-book-page">
      <h2>{t.title}</h2>
      {!availability.available && <Alert type="warning" showIcon message={availability.reason} />}
      {availability.available && (
        <section className="vw-book-import">
          <UploadDropzone<AudiobookWork>
            accept={BOOK_ACCEPT}
            acceptLabel={t.acceptLabel}
            limitKind="document"
            maxBytes={BOOK_MAX_BYTES}
            upload={upload}
            onUploaded={(work) => {
              void invalidateCall(api.audiobookList);
              navigate(workPath(work.work_id));
            }}
          />
        </section>
      )}
      <List
        className="vw-book-list"
        loading={works.isPending}
        dataSource={works.data?.list ?? []}
        locale={{ emptyText: <Empty description={t.listEmpty} /> }}
        pagination={
          (works.data?.total ?? 0) > 20
            ? { current: page, pageSize: 20, total: works.data?.total, onChange: setPage }
            : false
        }
        renderItem={(w) => <WorkRow work={w} onExport={() => setExporting(w.work_id)} />}
      />
      {exporting && <ExportDialog workId={exporting} open onClose={() => setExporting(null)} />}
    </div>
  );
}

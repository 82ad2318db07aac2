import {
  CustomerServiceOutlined,
  DeleteOutlined,
  DownloadOutlined,
  FolderOpenOutlined,
} from '@ant-design/icons';
import { keepPreviousData } from '@tanstack/react-query';
import type { ProjectView } from '@vw/contract';
import { type TaskTool, taskStatusNames } from '@vw/contract/constants/tasks.ts';
import { Button, Empty, Popconfirm, Table, type TableColumnsType, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatDateTime } from '@/features/credits/format.ts';
import { startDownloads } from '@/features/downloads/center.ts';
import { safeFileName } from '@/features/tts/downloads.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { isFinished, useTask, useTaskStream } from '@/lib/tasks/useTask.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { editorPath } from './project/useToolProject.ts';

const t = zhCN.videoTools;
const PAGE_SIZE = 10;

const STATUS_COLORS: Record<string, string> = {
  queued: 'default',
  running: 'processing',
  paused: 'warning',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** A project's status; while its task runs, the task's live progress; 重试 when it failed or was cancelled. */
function ProjectStatus({ project }: { project: ProjectView }) {
  const running = !isFinished(project) && project.status !== 'paused' && !!project.task_id;
  const { task } = useTask(running ? project.task_id : null);
  const retry = useCallMutation(api.retryTask, { invalidates: [api.listProjects] });
  if (running && task) return <TaskProgress task={task} compact />;
  const retryable = (project.status === 'failed' || project.status === 'cancelled') && project.task_id;
  return (
    <>
      <Tag color={STATUS_COLORS[project.status]} data-testid="project-status">
        {taskStatusNames[project.status]}
      </Tag>
      {retryable && (
        <Button
          size="small"
          type="link"
          loading={retry.isPending}
          onClick={() => retry.mutate({ body: { task_id: project.task_id! } })}
          data-testid="project-retry"
        >
          {zhCN.tasks.retry}
        </Button>
      )}
    </>
  );
}

/** Hands the project's SRT to the download center; the link is made when its turn comes. */
export function downloadSrt(project: ProjectView) {
  return startDownloads([
    {
      id: `${project.project_id}-srt`,
      urlResolver: async () => {
        const d = await http.request(
          api.exportProject,
          { body: { project_id: project.project_id, format: 'srt', speakers: false, timestamps: false } },
          { suppressError: true },
        );
        return d.url;
      },
      fileName: safeFileName(project.name),
      ext: 'srt',
      downloadTaskType: 'srt',
    },
  ]);
}

/** One tool's projects (newest first): cover, name, live status, duration, created, actions. */
export function ProjectList({
  tool,
  onOpen,
  column,
  download,
}: {
  tool: TaskTool;
  /** Opens a project somewhere else than the editor (a tool whose result is a video); its view downloads. */
  onOpen?: (project: ProjectView) => void;
  /** A tool's own column after the name (视频翻译: the languages). */
  column?: { title: string; render: (project: ProjectView) => ReactNode };
  /** 下载 and its label (the project's SRT unless the tool says otherwise). */
  download?: { label: string; run: (project: ProjectView) => unknown };
}) {
  const { message } = useApp();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  // Status changes of the tasks arrive on the shared stream and refresh this list.
  useTaskStream();
  const list = useCall(
    api.listProjects,
    { query: { tool, page, page_size: PAGE_SIZE } },
    { placeholderData: keepPreviousData, staleTime: 0 },
  );
  const remove = useCallMutation(api.deleteProject, {
    invalidates: [api.listProjects],
    onSuccess: () => message.success(t.deleted),
  });

  const columns: TableColumnsType<ProjectView> = [
    {
      title: t.colName,
      key: 'name',
      render: (_, p) => (
        <div className="vw-vt-project">
          {p.cover_url ? (
            <img className="vw-vt-cover" src={p.cover_url} alt="" loading="lazy" />
          ) : (
            <span className="vw-vt-cover vw-vt-cover-audio" role="img" aria-label={t.audio}>
              <CustomerServiceOutlined />
            </span>
          )}
          <span className="vw-vt-project-name" data-testid="project-name">
            {p.name}
          </span>
        </div>
      ),
    },
    ...(column
      ? [
          {
            title: column.title,
            key: 'extra',
            width: 150,
            render: (_: unknown, p: ProjectView) => column.render(p),
          },
        ]
      : []),
    {
      title: t.colStatus,
      key: 'status',
      width: 220,
      render: (_, p) => <ProjectStatus project={p} />,
    },
    {
      title: t.colDuration,
      key: 'duration',
      width: 90,
      render: (_, p) => (p.duration_ms != null ? formatDuration(p.duration_ms / 1000) : '—'),
    },
    {
      title: t.colCreated,
      key: 'created',
      width: 170,
      render: (_, p) => formatDateTime(p.created_time),
    },
    {
      title: t.colActions,
      key: 'actions',
      width: 250,
      render: (_, p) => {
        const ready = p.status === 'succeeded';
        return (
          <div className="vw-vt-row-actions">
            <Button
              size="small"
              type="link"
              icon={<FolderOpenOutlined />}
              // A task paused for review waits for the user in the editor.
              disabled={!ready && !(p.status === 'paused' && !onOpen)}
              onClick={() => (onOpen ? onOpen(p) : navigate(editorPath(p.project_id)))}
              data-testid="project-open"
            >
              {t.open}
            </Button>
            {!onOpen && (
              <Button
                size="small"
                type="link"
                icon={<DownloadOutlined />}
                disabled={!ready}
                onClick={() => {
                  void (download ? download.run(p) : downloadSrt(p));
                  message.success(t.downloadQueued);
                }}
                data-testid="project-download"
              >
                {download?.label ?? t.download}
              </Button>
            )}
            <Popconfirm
              title={t.deleteTitle}
              description={t.deleteBody}
              okText={t.delete}
              okButtonProps={{ danger: true, 'data-testid': 'project-delete-confirm' } as never}
              onConfirm={() =>
                remove.mutateAsync({ body: { project_id: p.project_id } }).catch(() => undefined)
              }
            >
              <Button size="small" type="link" danger icon={<DeleteOutlined />} data-testid="project-delete">
                {t.delete}
              </Button>
            </Popconfirm>
          </div>
        );
      },
    },
  ];

  return (
    <Table<ProjectView>
      rowKey="project_id"
      size="middle"
      columns={columns}
      dataSource={list.data?.list ?? []}
      loading={list.isFetching && !list.data}
      locale={{ emptyText: <Empty description={t.listEmpty} /> }}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: list.data?.total ?? 0,
        hideOnSinglePage: true,
        showSizeChanger: false,
        onChange: setPage,
      }}
      data-testid="project-list"
    />
  );
}

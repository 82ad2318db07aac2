import { DownloadOutlined } from '@ant-design/icons';
import type { TaskOutput, TaskView } from '@vw/contract';
import { Button, Space } from 'antd';
import useApp from 'antd/es/app/useApp';
import { startDownloads } from '@/features/downloads/center.ts';
import type { DownloadRequest } from '@/features/downloads/manager.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { downloadTaskTypeOf } from '@/stores/download.ts';

const d = zhCN.dubbing;

/** The download-center request of one task output; its link is fetched fresh when its turn comes. */
export function taskOutputDownload(task: TaskView, o: TaskOutput): DownloadRequest {
  const ext = o.name.includes('.') ? o.name.slice(o.name.lastIndexOf('.') + 1) : o.format;
  return {
    id: `${task.task_id}-${o.name}`,
    urlResolver: async () => {
      const fresh = await http.request(api.getTask, { query: { task_id: task.task_id } });
      return fresh.task.outputs.find((x) => x.name === o.name)?.url ?? o.url;
    },
    fileName: o.name.slice(0, o.name.length - ext.length - 1) || o.name,
    ext,
    downloadTaskType: downloadTaskTypeOf(ext),
  };
}

/** A task's outputs, each handed to the download center (its link fetched fresh when its turn comes). */
export function TaskOutputs({ task }: { task: TaskView }) {
  const { message } = useApp();
  if (task.status !== 'succeeded' || task.outputs.length === 0) return null;
  return (
    <Space wrap data-testid="dub-outputs">
      {task.outputs.map((o) => {
        return (
          <Button
            key={o.name}
            icon={<DownloadOutlined />}
            data-testid={`dub-output-${o.format}`}
            onClick={() => {
              startDownloads([taskOutputDownload(task, o)]);
              message.success(d.queued);
            }}
          >
            {d.download} {o.format.toUpperCase()}
          </Button>
        );
      })}
    </Space>
  );
}

import { DownloadOutlined } from '@ant-design/icons';
import type { TaskView } from '@vw/contract';
import { Button, Space } from 'antd';
import useApp from 'antd/es/app/useApp';
import { startDownloads } from '@/features/downloads/center.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { downloadTaskTypeOf } from '@/stores/download.ts';
import { d } from './strings.ts';

/** A task's outputs, each handed to the download center (its link fetched fresh when its turn comes). */
export function TaskOutputs({ task }: { task: TaskView }) {
  const { message } = useApp();
  if (task.status !== 'succeeded' || task.outputs.length === 0) return null;
  return (
    <Space wrap data-testid="dub-outputs">
      {task.outputs.map((o) => {
        const ext = o.name.includes('.') ? o.name.slice(o.name.lastIndexOf('.') + 1) : o.format;
        const base = o.name.slice(0, o.name.length - ext.length - 1) || o.name;
        return (
          <Button
            key={o.name}
            icon={<DownloadOutlined />}
            data-testid={`dub-output-${o.format}`}
            onClick={() => {
              startDownloads([
                {
                  id: `${task.task_id}-${o.name}`,
                  urlResolver: async () => {
                    const fresh = await http.request(api.getTask, { query: { task_id: task.task_id } });
                    return fresh.task.outputs.find((x) => x.name === o.name)?.url ?? o.url;
                  },
                  fileName: base,
                  ext,
                  downloadTaskType: downloadTaskTypeOf(ext),
                },
              ]);
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

import type { TaskView } from '@vw/contract';
import { Button, List, Popconfirm } from 'antd';
import useApp from 'antd/es/app/useApp';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const t = zhCN.voiceChanger;

function Row({ item, onOpen }: { item: TaskView; onOpen: (id: string) => void }) {
  const { message } = useApp();
  // Running rows follow their task live.
  const live =
    useTask(item.status === 'succeeded' || item.status === 'failed' ? null : item.task_id).task ?? item;
  const remove = useCallMutation(api.deleteTask, {
    invalidates: [api.listTasks],
    onSuccess: () => message.success(t.deleted),
  });
  return (
    <List.Item
      data-testid="vc-history-row"
      actions={[
        live.status === 'succeeded' && (
          <Button key="open" type="link" size="small" onClick={() => onOpen(live.task_id)}>
            {t.view}
          </Button>
        ),
        <Popconfirm
          key="delete"
          title={t.deleteConfirm}
          onConfirm={() => remove.mutate({ body: { task_id: live.task_id } })}
        >
          <Button type="link" size="small" danger loading={remove.isPending}>
            {t.delete}
          </Button>
        </Popconfirm>,
      ].filter(Boolean)}
    >
      <div className="vw-vc-history-main">
        <strong>{live.title}</strong>
        <span className="vw-vt-muted">{new Date(live.created_time * 1000).toLocaleString('zh-CN')}</span>
        <TaskProgress task={live} compact />
      </div>
    </List.Item>
  );
}

/** The tool's history: its tasks, newest first (`listTasks` by tool), open a result or delete it. */
export function History({ onOpen }: { onOpen: (taskId: string) => void }) {
  const list = useCall(api.listTasks, { query: { tool: 'voice_changer', page: 1, page_size: 20 } });
  return (
    <section className="vw-vc-history" data-testid="vc-history">
      <h3>{t.history}</h3>
      <List
        loading={list.isPending}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: t.historyEmpty }}
        renderItem={(item) => <Row item={item} onOpen={onOpen} />}
      />
    </section>
  );
}

import type { ProjectView } from '@vw/contract';
import { Button } from 'antd';
import { zhCN } from '@/locales/zh-CN.ts';
import { EraseStarted } from './EraseNewProject.tsx';

/** 打开 on an erase project: its task's progress or result (compare slider, report, download). */
export function EraseProjectResult({ project, onBack }: { project: ProjectView; onBack: () => void }) {
  return (
    <div data-testid="erase-project">
      <div className="vw-vt-toolbar">
        <h3>{project.name}</h3>
        <Button onClick={onBack}>{zhCN.videoTools.back}</Button>
      </div>
      {project.task_id && <EraseStarted taskId={project.task_id} title={project.name} />}
    </div>
  );
}

import type { TaskTool } from '@vw/contract/constants/tasks.ts';
import useApp from 'antd/es/app/useApp';
import { useCallback, useState } from 'react';
import { api } from '@/lib/api.ts';
import { invalidateCall } from '@/lib/query/hooks.ts';
import { useToolAvailability } from '../useToolAvailability.ts';

/** What a create call answers: the task that runs and the project it fills. */
export interface StartedProject {
  task_id: string;
  project_id: string;
}

/** Sets one field of a flow's form. */
export type SetField<Form> = <K extends keyof Form>(key: K, value: Form[K]) => void;

export const editorPath = (projectId: string) =>
  `/video-translation/editor?id=${encodeURIComponent(projectId)}`;

/**
 * The state every "new project" flow of the video tools holds: whether the tool can run, its options
 * as one object shaped like the create call's contract body (the flow adds the picked files when it
 * starts), and what it started. Options survive 再做一个; the picked files are the flow's own.
 */
export function useToolProject<Form extends object, Started = StartedProject>(
  tool: TaskTool,
  initialForm: Form | (() => Form),
  startedText: string,
) {
  const { message } = useApp();
  const availability = useToolAvailability(tool);
  const [form, setForm] = useState<Form>(initialForm);
  const [started, setStarted] = useState<Started | null>(null);
  const set = useCallback<SetField<Form>>((key, value) => setForm((f) => ({ ...f, [key]: value })), []);
  const onStarted = useCallback(
    (s: Started) => {
      setStarted(s);
      message.success(startedText);
      void invalidateCall(api.listProjects);
    },
    [message, startedText],
  );
  const clearStarted = useCallback(() => setStarted(null), []);
  return { availability, off: !availability.available, form, set, setForm, started, onStarted, clearStarted };
}

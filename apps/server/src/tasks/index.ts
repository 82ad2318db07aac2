export { definePipeline, type Pipeline, type StageContext, type StageDef } from './pipeline.ts';
export { runTaskInline, taskFailure } from './runner.ts';
export {
  createTask,
  deleteTasksOfProject,
  getOwnedTask,
  getTaskView,
  toTaskView,
} from './tasks.service.ts';

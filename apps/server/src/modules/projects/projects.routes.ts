import { projectsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import {
  deleteProject,
  exportProject,
  getProject,
  listProjects,
  renameProject,
  saveProject,
} from './projects.service.ts';

export function registerProjectRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, projectsCalls.listProjects, ({ user, query }) => listProjects(ctx, user.uid, query));
  registerCall(app, projectsCalls.getProject, ({ user, query }) =>
    getProject(ctx, user.uid, query.project_id),
  );
  // A document of 20 000 cues is a few MB of JSON.
  registerCall(app, projectsCalls.saveProject, ({ user, body }) => saveProject(ctx, user.uid, body), {
    bodyLimit: 16 * 1024 * 1024,
  });
  registerCall(app, projectsCalls.renameProject, ({ user, body }) =>
    renameProject(ctx, user.uid, body.project_id, body.name),
  );
  registerCall(app, projectsCalls.deleteProject, ({ user, body }) =>
    deleteProject(ctx, user.uid, body.project_id),
  );
  registerCall(app, projectsCalls.exportProject, ({ user, body }) => exportProject(ctx, user.uid, body), {
    rateLimit: { max: 60, timeWindow: '1 minute' },
  });
}

import { audiobookCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import {
  castVoices,
  deleteWork,
  editChapters,
  editParagraph,
  getExportReport,
  getParagraphs,
  getWork,
  importWork,
  listWorks,
  pronunciationChanged,
  startExport,
  startSynthesis,
  updateWorkInfo,
} from './audiobook.service.ts';

export function registerAudiobookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const c = audiobookCalls;
  registerCall(
    app,
    c.audiobookImport,
    async ({ user, body }) => ({ work: await importWork(ctx, user.uid, body) }),
    {
      rateLimit: { max: 30, timeWindow: '1 minute' },
    },
  );
  registerCall(app, c.audiobookList, ({ user, query }) => listWorks(ctx, user.uid, query));
  registerCall(app, c.audiobookGet, ({ user, query }) => getWork(ctx, user.uid, query.work_id));
  registerCall(app, c.audiobookParagraphs, ({ user, query }) =>
    getParagraphs(ctx, user.uid, query.work_id, query.chapter_id),
  );
  registerCall(app, c.audiobookDelete, async ({ user, body }) => ({
    deleted: await deleteWork(ctx, user.uid, body.work_id),
  }));
  registerCall(app, c.audiobookUpdate, ({ user, body }) => updateWorkInfo(ctx, user.uid, body), {
    bodyLimit: 4 * 1024 * 1024,
  });
  registerCall(app, c.audiobookChapterEdit, ({ user, body }) => editChapters(ctx, user.uid, body));
  registerCall(app, c.audiobookParagraphEdit, ({ user, body }) => editParagraph(ctx, user.uid, body));
  registerCall(app, c.audiobookPronunciationChanged, ({ user, body }) =>
    pronunciationChanged(ctx, user.uid, body),
  );
  registerCall(app, c.audiobookCast, ({ user, body }) => castVoices(ctx, user.uid, body));
  registerCall(app, c.audiobookSynthesize, ({ user, body }) => startSynthesis(ctx, user.uid, body), {
    rateLimit: { max: 60, timeWindow: '1 minute' },
  });
  registerCall(app, c.audiobookExport, ({ user, body }) => startExport(ctx, user.uid, body), {
    rateLimit: { max: 30, timeWindow: '1 minute' },
  });
  registerCall(app, c.audiobookExportReport, ({ user, query }) =>
    getExportReport(ctx, user.uid, query.work_id, query.task_id),
  );
}

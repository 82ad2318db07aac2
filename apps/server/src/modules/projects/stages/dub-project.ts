import { type ProjectDocument, projectDocument } from '@vw/contract';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../errors.ts';
import { findAssetOfOwner } from '../../uploads/uploads.repo.ts';
import { findProject, updateDocumentAtVersion, updateProject } from '../projects.repo.ts';
import { normalizeDocument } from '../projects.service.ts';

/*
 * Dubbing keeps everything on the project document (takes, fit, settings) and its files under the
 * project's storage prefix: no tables of its own. A task writes one line at a time by compare-and-set
 * on the version, so an edit saved in between is kept (and the editor reloads on the next save).
 */

export async function readDubProject(ctx: AppContext, ownerId: string, projectId: string) {
  const row = await findProject(ctx.db, ownerId, projectId);
  if (!row) throw AppError.named('err_not_found', '项目不存在');
  const document = projectDocument.parse(JSON.parse(row.document));
  const assetId = document.dub?.media_asset_id;
  const asset = assetId ? await findAssetOfOwner(ctx.db, ownerId, assetId) : undefined;
  return { row, document, version: row.version, media_ms: asset?.duration_ms ?? null };
}

/** Read → change → write at that version, again when someone saved in between (up to 20 times). */
export async function updateDubDocument(
  ctx: AppContext,
  ownerId: string,
  projectId: string,
  change: (doc: ProjectDocument) => ProjectDocument,
  engineLabel?: string,
): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const { document, version } = await readDubProject(ctx, ownerId, projectId);
    const next = normalizeDocument(change(document));
    const now = ctx.clock.now();
    if (await updateDocumentAtVersion(ctx.db, ownerId, projectId, version, JSON.stringify(next), now)) {
      if (engineLabel) await updateProject(ctx.db, ownerId, projectId, { engine_label: engineLabel });
      return version + 1;
    }
  }
  throw AppError.named('err_project_version_conflict');
}

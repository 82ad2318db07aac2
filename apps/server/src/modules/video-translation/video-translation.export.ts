import { type SubtitleCue, type TimedText, type TranslationExportFormat, toSrt, toVtt } from '@vw/contract';
import { toAss } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { projectFilesPrefix, safeFileName } from '../projects/projects.service.ts';
import { sourceTextOf, targetTrack } from './video-translation.pipeline.ts';
import { translationProject } from './video-translation.service.ts';

/*
 * Text exports of a translation project: SRT / VTT / ASS / TXT of the source, the target or both
 * (bilingual: the translation over its source, as in the burned bilingual render), and a CSV
 * speaker,start,end,source,translation. The file lives under the project (removed with it).
 */

const LINK_SECONDS = 3600;
const CONTENT_TYPES: Record<TranslationExportFormat, string> = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  ass: 'text/x-ssa; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const csvField = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function translationRows(doc: Parameters<typeof sourceTextOf>[0]) {
  const speakers = new Map(doc.speakers.map((s) => [s.id, s.name]));
  return (targetTrack(doc)?.cues ?? []).map((c: SubtitleCue) => ({
    speaker: c.speaker_id ? (speakers.get(c.speaker_id) ?? '') : '',
    start_ms: c.start_ms,
    end_ms: c.end_ms,
    source: sourceTextOf(doc, c),
    translation: c.text,
  }));
}

export function exportText(
  doc: Parameters<typeof sourceTextOf>[0],
  format: TranslationExportFormat,
  lines: 'source' | 'target' | 'bilingual',
): string {
  const rows = translationRows(doc);
  if (format === 'csv') {
    const head = 'speaker,start,end,source,translation';
    const body = rows.map((r) =>
      [r.speaker, seconds(r.start_ms), seconds(r.end_ms), r.source, r.translation].map(csvField).join(','),
    );
    // A BOM so spreadsheet programs read the UTF-8 Chinese.
    return `\uFEFF${[head, ...body].join('\r\n')}\r\n`;
  }
  const pick = (which: 'source' | 'translation'): TimedText[] =>
    rows.map((r) => ({ start_ms: r.start_ms, end_ms: r.end_ms, text: r[which] }));
  const main = lines === 'source' ? pick('source') : pick('translation');
  if (format === 'ass')
    return toAss(main, doc.dub?.subtitle_style, lines === 'bilingual' ? pick('source') : undefined);
  const cues =
    lines === 'bilingual'
      ? rows.map((r) => ({
          start_ms: r.start_ms,
          end_ms: r.end_ms,
          text: [r.translation, r.source].filter(Boolean).join('\n'),
        }))
      : main;
  if (format === 'srt') return toSrt(cues);
  if (format === 'vtt') return toVtt(cues);
  return `${cues.map((c) => c.text).join('\n\n')}\n`;
}

export async function exportTranslation(
  ctx: AppContext,
  userId: string,
  body: { project_id: string; format: TranslationExportFormat; lines: 'source' | 'target' | 'bilingual' },
) {
  const { row, document } = await translationProject(ctx, userId, body.project_id);
  const lines = body.format === 'csv' ? 'bilingual' : body.lines;
  const bytes = Buffer.from(exportText(document, body.format, lines), 'utf8');
  const key = `${projectFilesPrefix(userId, row.id)}exports/translation-${lines}.${body.format}`;
  await ctx.storage.put(key, bytes, CONTENT_TYPES[body.format]);
  const suffix = body.format === 'csv' ? '' : { source: '-原文', target: '-译文', bilingual: '-双语' }[lines];
  const fileName = `${safeFileName(row.name)}${suffix}.${body.format}`;
  const url = await ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS, downloadName: fileName });
  return { url, file_name: fileName, size: bytes.length };
}

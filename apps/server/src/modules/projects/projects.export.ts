import {
  formatTime,
  type ProjectDocument,
  type projectsCalls,
  type SubtitleTrack,
  toSrt,
  toTxt,
  toVtt,
} from '@vw/contract';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';

/*
 * A project's subtitle track rendered as a downloadable file. Pure (no storage, no database): the
 * service stores the bytes and signs the link.
 */

export type ExportFormat = projectsCalls.ExportFormat;

export interface ExportOptions {
  speakers: boolean;
  timestamps: boolean;
}

export interface RenderedExport {
  bytes: Buffer;
  contentType: string;
  extension: string;
}

/** The cues of a track in time order, each with its speaker's display name (null when none). */
function cuesWithSpeakers(document: ProjectDocument, track: SubtitleTrack) {
  const names = new Map(document.speakers.map((s) => [s.id, s.name]));
  return [...track.cues]
    .sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms)
    .map((c) => ({ ...c, speaker: c.speaker_id ? (names.get(c.speaker_id) ?? null) : null }));
}

const text = (body: string, contentType: string, extension: string): RenderedExport => ({
  bytes: Buffer.from(body, 'utf8'),
  contentType,
  extension,
});

export async function renderExport(
  name: string,
  document: ProjectDocument,
  track: SubtitleTrack,
  format: ExportFormat,
  options: ExportOptions,
): Promise<RenderedExport> {
  const cues = cuesWithSpeakers(document, track);
  switch (format) {
    case 'txt':
      return text(toTxt(cues, options), 'text/plain; charset=utf-8', 'txt');
    // Subtitle files carry times by nature; speaker names are not part of either format.
    case 'srt':
      return text(toSrt(cues), 'application/x-subrip; charset=utf-8', 'srt');
    case 'vtt':
      return text(toVtt(cues), 'text/vtt; charset=utf-8', 'vtt');
    case 'json': {
      // The data export: times always (a JSON without them would be of little use), names when asked.
      const body = {
        name,
        language: track.language,
        cues: cues.map((c) => ({
          start_ms: c.start_ms,
          end_ms: c.end_ms,
          ...(options.timestamps ? { start: formatTime(c.start_ms), end: formatTime(c.end_ms) } : {}),
          ...(options.speakers ? { speaker: c.speaker } : {}),
          text: c.text,
        })),
      };
      return text(`${JSON.stringify(body, null, 2)}\n`, 'application/json; charset=utf-8', 'json');
    }
    case 'docx':
      return {
        bytes: await docxOf(name, cues, options),
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        extension: 'docx',
      };
  }
}

/** A Word document: the project name as the title, then one paragraph per cue. */
async function docxOf(
  name: string,
  cues: Array<{ start_ms: number; text: string; speaker: string | null }>,
  options: ExportOptions,
): Promise<Buffer> {
  const paragraphs = cues
    .filter((c) => c.text.trim())
    .map((c) => {
      const runs: TextRun[] = [];
      if (options.timestamps)
        runs.push(new TextRun({ text: `[${formatTime(c.start_ms)}] `, color: '888888' }));
      if (options.speakers && c.speaker) runs.push(new TextRun({ text: `${c.speaker}：`, bold: true }));
      // A line break inside a cue is a display matter; in prose it is a space (as in TXT).
      runs.push(
        new TextRun({
          text: c.text
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
            .join(' '),
        }),
      );
      return new Paragraph({ children: runs, spacing: { after: 120 } });
    });
  const doc = new Document({
    creator: '声音工作台',
    title: name,
    styles: {
      default: { document: { run: { font: { eastAsia: 'Microsoft YaHei', ascii: 'Calibri' }, size: 22 } } },
    },
    sections: [
      {
        children: [
          new Paragraph({ text: name, heading: HeadingLevel.HEADING_1, alignment: AlignmentType.LEFT }),
          ...paragraphs,
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

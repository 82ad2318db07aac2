import type { StageContext } from '../../../tasks/pipeline.ts';

const CONTENT_TYPES = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  ass: 'text/x-ssa; charset=utf-8',
} as const;

/**
 * Subtitle files as the task's outputs (`<title>.<format>`, in the order given), each stored as an
 * artifact: the last step of speech to text, subtitle recognition and the dub render.
 */
export async function writeSubtitleOutputs(
  ctx: StageContext<unknown>,
  files: Partial<Record<keyof typeof CONTENT_TYPES, string>>,
): Promise<void> {
  for (const [format, text] of Object.entries(files) as Array<[keyof typeof CONTENT_TYPES, string]>) {
    const bytes = Buffer.from(text, 'utf8');
    const key = await ctx.saveArtifact(
      { bytes },
      { name: `subtitles.${format}`, contentType: CONTENT_TYPES[format] },
    );
    await ctx.addOutput({
      name: `${ctx.task.title}.${format}`,
      kind: 'srt',
      format,
      key,
      size: bytes.length,
    });
  }
}

// Makes a clip with burned-in subtitles for the subtitle-tools journey (run with node --import tsx):
//   make-subtitled-clip.ts <out.mp4> <cues JSON>
import { makeSubtitledClip } from '../packages/engines/src/media/testclips.ts';

const [out, cues] = process.argv.slice(2);
const clip = await makeSubtitledClip(out, {
  width: 480,
  height: 270,
  duration_ms: 4000,
  background: 'moving',
  cues: JSON.parse(cues),
  speech: true,
});
process.stdout.write(JSON.stringify(clip));

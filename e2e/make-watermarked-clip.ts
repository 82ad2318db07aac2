// Makes a clean clip and the same clip with a semi-transparent logo for the watermark journey (run
// with node --import tsx):  make-watermarked-clip.ts <clean.mp4> <marked.mp4> <kind> <marks JSON>
import { burnWatermark, type CleanKind, makeCleanClip } from '../packages/engines/src/erase/truth.ts';

const [clean, marked, kind, marks] = process.argv.slice(2);
await makeCleanClip(clean, kind as CleanKind, { width: 480, height: 270, seconds: 4 });
await burnWatermark(clean, marked, JSON.parse(marks), {});

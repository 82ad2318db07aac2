import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /audio-book/work/:id (full screen) — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="audioBookWork" fullScreen />;
}

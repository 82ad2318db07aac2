import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /video-translation/editor (full screen) — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="videoEditor" fullScreen />;
}

import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /video-translation/:tab? — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="videoTranslation" />;
}

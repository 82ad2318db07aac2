import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /audio-book — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="audioBook" />;
}

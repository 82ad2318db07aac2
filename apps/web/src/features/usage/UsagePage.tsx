import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /usage — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="usage" />;
}

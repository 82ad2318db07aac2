import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /subscription — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="subscription" />;
}

import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /api-keys — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="apiKeys" />;
}

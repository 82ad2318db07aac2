import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /voice-cloning — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="voiceCloning" />;
}

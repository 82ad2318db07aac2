import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /tts — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="tts" />;
}

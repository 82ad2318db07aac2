import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /voice-changer — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="voiceChanger" />;
}

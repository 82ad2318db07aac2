import { FeaturePlaceholder } from '@/components/FeaturePlaceholder.tsx';

/** Route /voice-cloning/normal-clone — replaced by the issue that builds this tool. */
export function Component() {
  return <FeaturePlaceholder feature="normalClone" />;
}

import { useSearchParams } from 'react-router';
import { EditorPage } from './editor/EditorPage.tsx';

/** Route /video-translation/editor?id=<project_id> (full screen, spec §2): the subtitle editor. */
export function Component() {
  const [params] = useSearchParams();
  return <EditorPage projectId={params.get('id') ?? ''} />;
}

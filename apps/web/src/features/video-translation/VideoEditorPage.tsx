import { QueryClientProvider } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { EditorPage } from './editor/EditorPage.tsx';
import { editorQueryClient } from './editor/editorApi.ts';

/** Route /video-translation/editor?id=<project_id> (full screen, spec §2): the subtitle editor. */
export function Component() {
  const [params] = useSearchParams();
  return (
    <QueryClientProvider client={editorQueryClient}>
      <EditorPage projectId={params.get('id') ?? ''} />
    </QueryClientProvider>
  );
}

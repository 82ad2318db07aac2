import { redirect } from 'react-router';
import { ensureAppConfig, ensureSession } from '@/lib/auth/session.ts';
import { loginPath } from './meta.ts';

/** Layout loader: the startup check of spec §4 before any signed-in page. */
export async function requireSession({ request }: { request: Request }) {
  const session = await ensureSession();
  if (!session.ok) {
    throw redirect(session.refused ? '/login?refused=1' : loginPath(request.url));
  }
  return null;
}

/** Validator of /voice-cloning: enterable only when voice_clone_switch is on, otherwise home. */
export async function voiceCloneValidator({ request }: { request: Request }) {
  await requireSession({ request });
  const config = await ensureAppConfig();
  if (!config.voice_clone_config.voice_clone_switch) throw redirect('/');
  return null;
}

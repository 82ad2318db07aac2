export interface FakeVoiceServers {
  url: string;
  requests: Array<{
    path: string;
    fields: Record<string, string>;
    files: Record<string, number>;
    authorization: string | null;
  }>;
  close(): Promise<void>;
}
export const ROUTES: Record<string, (req: unknown, res: unknown, state: unknown) => unknown>;
export function startFakeVoiceServers(opts?: { port?: number; apiKey?: string }): Promise<FakeVoiceServers>;

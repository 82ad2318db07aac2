/*
 * The voice-clone training server (VOICE_CLONE_TRAINER_URL): POST {url}/train with the dataset and
 * reference clips answers a job id; GET {url}/train/{job} answers its status, and when ready the
 * voice (a TTS engine and its parameters) it trained.
 */

export interface TrainerStatus {
  status: 'queued' | 'training' | 'ready' | 'failed';
  error?: string;
  voice?: { engine: string; params: Record<string, unknown> };
}

export interface TrainingRequest {
  voice_id: string;
  language: string;
  dataset: Array<{ url: string; name: string }>;
  references: Array<{ url: string; text: string | null }>;
}

export interface Trainer {
  label: string;
  train(request: TrainingRequest): Promise<{ job_id: string }>;
  status(jobId: string): Promise<TrainerStatus>;
}

export function createTrainer(url: string): Trainer {
  const base = url.replace(/\/+$/, '');
  const call = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    if (!res.ok) throw new Error(`训练服务出错（${res.status}）：${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  };
  return {
    label: '训练服务',
    train: (request) =>
      call('/train', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }),
    status: (jobId) => call(`/train/${encodeURIComponent(jobId)}`),
  };
}

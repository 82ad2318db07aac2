import { EngineError } from '../errors.ts';
import { engineFetch, type RemoteErrors } from '../http/engine-fetch.ts';

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

const TRAINER_ERRORS: RemoteErrors = {
  aborted: () => new EngineError('aborted', '已取消', 'cancelled'),
  timedOut: () => new EngineError('timeout', '训练服务没有及时回答，请稍后重试', 'trainer timed out'),
  unreachable: (cause) =>
    new EngineError('engine_unavailable', `训练服务无法连接：${cause.message}`, 'trainer unreachable', {
      cause,
    }),
  failed: (status, body) =>
    new EngineError(
      'remote_error',
      `训练服务出错（${status}）：${body.slice(0, 200)}`,
      `trainer answered ${status}`,
    ),
};

export function createTrainer(url: string): Trainer {
  const base = url.replace(/\/+$/, '');
  const call = async <T>(path: string, init?: Omit<RequestInit, 'signal'>): Promise<T> => {
    // Starting a training is not repeated on a lost answer: the trainer may have started it.
    const { body } = await engineFetch(`${base}${path}`, {
      ...init,
      errors: TRAINER_ERRORS,
      timeoutMs: 30_000,
      idempotent: init?.method === undefined,
    });
    return JSON.parse(body.toString('utf8')) as T;
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

import type { TaskView } from '@vw/contract';

export const task = (over: Partial<TaskView> = {}): TaskView => ({
  task_id: 'tsk_1',
  tool: 'stt',
  title: '会议录音.mp3',
  status: 'running',
  stage: 'recognize',
  stages: [
    { name: 'prepare', label: '准备音频', status: 'done', progress: 100, weight: 0.1 },
    { name: 'recognize', label: '识别语音', status: 'running', progress: 20, weight: 0.9 },
  ],
  progress: 28,
  error_code: 0,
  error: null,
  credits_estimated: 10,
  credits_held: 10,
  credits_captured: 0,
  input_asset_ids: ['ast_1'],
  outputs: [],
  project_id: 'prj_1',
  pause_point: null,
  eta_seconds: null,
  created_time: Math.floor(Date.now() / 1000) - 65,
  started_time: Math.floor(Date.now() / 1000) - 65,
  finished_time: null,
  ...over,
});

/**
 * A fake task event stream: every GET /v1/tasks/events opens a connection the test writes SSE text
 * into, closes, or breaks; the request's headers are kept.
 */
export function fakeEventStream() {
  const connections: Array<{
    headers: Record<string, string>;
    send: (text: string) => void;
    event: (id: number, t: TaskView, type?: string) => void;
    close: () => void;
    closed: boolean;
  }> = [];
  const encoder = new TextEncoder();
  let refuse = 0;
  const route = ({ init }: { init: RequestInit | undefined }) => {
    if (refuse > 0) {
      refuse--;
      return new Response('unavailable', { status: 503 });
    }
    let ctl!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        ctl = c;
      },
    });
    const conn = {
      headers: { ...((init?.headers as Record<string, string>) ?? {}) },
      closed: false,
      send: (text: string) => ctl.enqueue(encoder.encode(text)),
      event: (id: number, t: TaskView, type = 'task.progress') =>
        conn.send(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, type, task: t })}\n\n`),
      close: () => {
        conn.closed = true;
        ctl.close();
      },
    };
    init?.signal?.addEventListener('abort', () => {
      conn.closed = true;
      try {
        ctl.error(new DOMException('aborted', 'AbortError'));
      } catch {
        // already closed
      }
    });
    connections.push(conn);
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  return {
    connections,
    route,
    /** The next `n` connection attempts answer 503. */
    refuse(n: number) {
      refuse = n;
    },
    get last() {
      return connections[connections.length - 1];
    },
    get open() {
      return connections.filter((c) => !c.closed);
    },
  };
}

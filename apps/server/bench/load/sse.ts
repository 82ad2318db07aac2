/** A task event stream read over fetch, as the web reads it; used by the load harness and its tests. */
export interface SseEvent {
  id: number;
  type: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  events: SseEvent[];
  /** The last event id seen: what a reconnect sends as Last-Event-ID. */
  lastId(): number | undefined;
  /** Resolves when the server ends the stream: 'ended' (a clean end of the body) or 'error' (cut). */
  ended: Promise<'ended' | 'error' | 'aborted'>;
  close(): Promise<void>;
}

export async function openTaskStream(
  base: string,
  token: string,
  options: { lastEventId?: number; headers?: Record<string, string>; onEvent?: (e: SseEvent) => void } = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/v1/tasks/events`, {
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.lastEventId !== undefined ? { 'last-event-id': String(options.lastEventId) } : {}),
      ...options.headers,
    },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  let last = options.lastEventId;
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async (): Promise<'ended' | 'error' | 'aborted'> => {
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      return 'error';
    }
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const field = (name: string) =>
            lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
          const data = field('data');
          if (data === undefined) continue;
          const event = {
            id: Number(field('id')),
            type: field('event') ?? 'message',
            data: JSON.parse(data),
          };
          last = event.id;
          events.push(event);
          options.onEvent?.(event);
        }
      }
      return 'ended';
    } catch {
      return abort.signal.aborted ? 'aborted' : 'error';
    }
  })();
  return {
    status: res.status,
    events,
    lastId: () => last,
    ended,
    async close() {
      abort.abort();
      await ended;
    },
  };
}

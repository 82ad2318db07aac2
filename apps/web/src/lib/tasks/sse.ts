/** One Server-Sent Events message (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseFrame {
  id: string | undefined;
  event: string;
  data: string;
  /** A `retry:` field: the reconnection delay the server asks for (ms). */
  retry?: number;
}

/**
 * Incremental parser of an event stream: feed it decoded text as it arrives, get the complete
 * messages. Lines end in LF, CR or CRLF; `:` lines are comments (keep-alive pings); a blank line
 * dispatches; `data` lines join with LF; a message without data is not dispatched (per the spec).
 */
export class SseParser {
  private buffer = '';
  private id: string | undefined;
  private event = '';
  private data: string[] = [];
  private retry: number | undefined;
  /** The last event id seen (kept across messages, as EventSource does). */
  lastEventId: string | undefined;

  push(text: string): SseFrame[] {
    this.buffer += text;
    const frames: SseFrame[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      // A lone CR at the very end may be the first half of CRLF: wait for more text.
      if (m[0] === '\r' && m.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const frame = this.line(line);
      if (frame) frames.push(frame);
    }
    return frames;
  }

  private line(line: string): SseFrame | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'id') {
      if (!value.includes('\0')) this.id = value;
    } else if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return null;
  }

  private dispatch(): SseFrame | null {
    if (this.id !== undefined) this.lastEventId = this.id;
    const frame: SseFrame | null =
      this.data.length > 0
        ? {
            id: this.lastEventId,
            event: this.event || 'message',
            data: this.data.join('\n'),
            ...(this.retry !== undefined ? { retry: this.retry } : {}),
          }
        : null;
    this.id = undefined;
    this.event = '';
    this.data = [];
    this.retry = undefined;
    return frame;
  }
}

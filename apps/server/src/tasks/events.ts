import { EventEmitter } from 'node:events';
import type { TaskEventType } from '@vw/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { TaskRow } from '../db/schema.ts';

/** One change of a task as stored in task_events: its number, type and the task as it was then. */
export interface TaskEventMessage {
  seq: number;
  type: TaskEventType;
  task: TaskRow;
}

/**
 * Fans task events out to the SSE streams of this process. Without Redis, events stay in the
 * process (the embedded mode runs API and worker together); with REDIS_URL every process publishes
 * to one channel and every process with listeners subscribes, so an API process sees a worker's events.
 * Lives on AppContext (one per context), not in a module map.
 */
export interface TaskEventHub {
  publish(message: TaskEventMessage): void;
  /** Calls `listener` with each event of `ownerId`'s tasks; resolves (to the unsubscribe) once listening. */
  subscribe(ownerId: string, listener: (message: TaskEventMessage) => void): Promise<() => void>;
  close(): Promise<void>;
}

export function createTaskEventHub(options: {
  redisUrl?: string;
  prefix?: string;
  log: FastifyBaseLogger;
}): TaskEventHub {
  const { redisUrl, log } = options;
  const channel = `${options.prefix ?? 'vw'}:task-events`;
  const local = new EventEmitter();
  // One listener per open stream; hundreds of streams of one user are not a leak.
  local.setMaxListeners(0);
  let publisher: Redis | null = null;
  let subscriber: Redis | null = null;
  let subscribed: Promise<unknown> = Promise.resolve();
  let publishing: Promise<unknown> = Promise.resolve();

  const deliver = (message: TaskEventMessage) => local.emit(message.task.owner_id, message);

  function subscribeRedis(): Promise<unknown> {
    if (!redisUrl || subscriber) return subscribed;
    subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    subscriber.on('message', (_channel, text: string) => {
      try {
        deliver(JSON.parse(text) as TaskEventMessage);
      } catch (err) {
        log.warn({ err }, 'bad task event on redis');
      }
    });
    subscriber.on('error', (err) => log.warn({ err }, 'task event subscriber error'));
    subscribed = subscriber
      .subscribe(channel)
      .catch((err) => log.error({ err }, 'could not subscribe to task events'));
    return subscribed;
  }

  return {
    publish(message) {
      if (!redisUrl) {
        deliver(message);
        return;
      }
      if (!publisher) {
        publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
        publisher.on('error', (err) => log.warn({ err }, 'task event publisher error'));
      }
      const redis = publisher;
      // One after another: a command issued while the connection is still coming up can otherwise
      // overtake one queued before it, and a stream would see a task's events out of order.
      // The event row is stored already: a lost publish is caught up by the client's Last-Event-ID.
      publishing = publishing
        .then(() => redis.publish(channel, JSON.stringify(message)))
        .catch((err) => log.warn({ err }, 'could not publish a task event'));
    },
    async subscribe(ownerId, listener) {
      local.on(ownerId, listener);
      await subscribeRedis();
      return () => {
        local.off(ownerId, listener);
      };
    },
    async close() {
      local.removeAllListeners();
      await publishing;
      await publisher?.quit().catch(() => {});
      await subscriber?.quit().catch(() => {});
      publisher = null;
      subscriber = null;
    },
  };
}

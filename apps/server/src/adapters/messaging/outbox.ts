import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type { MessageSender } from './messaging.ts';

/**
 * Development delivery: the message is stored in `dev_outbox` and logged, and can be read at
 * GET /dev/outbox. Never used in production mode (config refuses it there).
 */
export function createOutboxSender(
  channel: 'sms' | 'mail',
  db: Db,
  log: FastifyBaseLogger,
  now: () => number,
): MessageSender {
  return {
    channel,
    provider: 'outbox',
    async send(message) {
      await db
        .insertInto('dev_outbox')
        .values({
          id: newId('msg'),
          channel,
          to: message.to,
          subject: message.subject,
          text: message.text,
          created_at: now(),
        })
        .execute();
      log.info({ channel, to: message.to, text: message.text }, 'dev outbox: message stored (not sent)');
    },
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { MessageSender } from './messaging.ts';

/**
 * Development delivery: the message is stored in `dev_outbox`, readable at GET /dev/outbox (from
 * loopback only). The log says that a message was stored, never what it says: no log line holds a code.
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
      log.info({ channel, to: message.to }, 'dev outbox: message stored (not sent), read it at /dev/outbox');
    },
  };
}

/**
 * Production with VERIFICATION_CODES_TO_LOG=true and no real sender for the channel: the operator
 * asked to read codes from the server log and pass them on (the one deliberate exception).
 */
export function createOperatorLogSender(channel: 'sms' | 'mail', log: FastifyBaseLogger): MessageSender {
  return {
    channel,
    provider: 'operator-log',
    async send(message) {
      log.warn(
        { channel, to: message.to, text: message.text },
        'verification message for the operator to pass on',
      );
    },
  };
}

/** Production without a sender for the channel: codes to it are refused (the other channel works). */
export function createUnavailableSender(channel: 'sms' | 'mail'): MessageSender {
  return {
    channel,
    provider: 'none',
    async send() {
      throw AppError.named(
        'err_interface_unavailable',
        channel === 'sms' ? '暂不支持手机号验证码，请使用邮箱' : '暂不支持邮箱验证码，请使用手机号',
      );
    },
  };
}

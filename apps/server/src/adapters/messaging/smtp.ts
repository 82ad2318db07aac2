import nodemailer from 'nodemailer';
import type { MessageSender } from './messaging.ts';

/** Mail through any SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com). */
export function createSmtpSender(smtpUrl: string, from: string): MessageSender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    channel: 'mail',
    provider: 'smtp',
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

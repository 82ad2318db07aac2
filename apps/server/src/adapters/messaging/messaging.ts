/** A message to a phone or a mailbox; `params` feed providers that send templates (SMS). */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  params: Record<string, string>;
}

/** The SMS and mail ports: each has a dev outbox and real implementations chosen from config. */
export interface MessageSender {
  readonly channel: 'sms' | 'mail';
  readonly provider: string;
  send(message: OutgoingMessage): Promise<void>;
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { newToken } from '../../ids.js';
import type { IncomingEvent } from './source.js';

// Webhook: POST /api/triggers/{id}/events with the rule's secret in a header. Only the secret's
// SHA-256 is stored; a delivery's secret is hashed and compared in constant time. The delivery id
// header names the event; without one, the event is named by a hash of the body.

export const SECRET_HEADER = 'svc-trigger-secret';
export const DELIVERY_HEADER = 'svc-delivery-id';

export const newSecret = (): string => newToken();
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export const secretMatches = (given: string, storedHash: string | null): boolean => {
  if (storedHash === null || given === '') return false;
  const a = Buffer.from(hashSecret(given), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};

export interface WebhookBody {
  readonly summary?: string;
  readonly url?: string;
  readonly fields?: Readonly<Record<string, string>>;
}

export const contentId = (prefix: string, ...parts: string[]): string =>
  `${prefix}:${createHash('sha256').update(parts.join('\0'), 'utf8').digest('hex').slice(0, 32)}`;

export const webhookEvent = (body: WebhookBody, deliveryId: string | null, raw: string): IncomingEvent => ({
  id: deliveryId ? `webhook:${deliveryId}` : contentId('webhook', raw),
  kind: 'Webhook',
  summary: body.summary ?? `webhook delivery${deliveryId ? ` ${deliveryId}` : ''}`,
  ...(body.url ? { url: body.url } : {}),
  fields: { ...(body.fields ?? {}), ...(deliveryId ? { delivery: deliveryId } : {}) },
});

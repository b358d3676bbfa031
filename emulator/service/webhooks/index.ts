/**
 * Webhooks (document 2.4, 4.3): the area as areas.ts registers it, its handlers and its tables
 * (webhooks and the outbox of scan.complete deliveries, which notify.ts sends).
 */
export { webhookHandlers } from './routes';
export { WEBHOOKS_TABLES } from './tables';

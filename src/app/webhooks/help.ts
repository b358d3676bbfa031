/**
 * The words of Settings > Webhooks that explain rather than act, sent with listWebhooks so that
 * they cost the sidebar page nothing (it is served on every open), and the sample scan.complete
 * event a seller pastes into an automation service while setting it up.
 *
 * Why a sample and no "send a test event": the API has no test delivery (scan-service-api.md 4.3
 * and 6), and a published add-on may fetch only the addresses of its manifest's urlFetchWhitelist
 * (the Scan Service), so it cannot POST to a seller's Zapier or Make address itself.
 */
import type { WebhookHelp } from './protocol';

/** A scan.complete payload as the service sends it (scan-service-api.md section 6), with made-up figures. */
export const SAMPLE_EVENT = {
  event: 'scan.complete',
  timestamp: '2026-01-05T10:02:00Z',
  scan: {
    id: 12345,
    name: 'Sample price list 2026-01-05',
    status: 'success',
    marketplace_id: 1,
    products: 36,
    errors: 0,
    speed: 120,
    lines: 36,
    created_at: '2026-01-05T10:00:00',
    completed_at: '2026-01-05T10:02:00Z',
  },
};

export function webhookHelp(): WebhookHelp {
  return {
    about:
      'When a scan finishes, the Scan Service can notify an address of yours (event scan.complete), e.g. to post a chat message or start an automation.',
    receiver: [
      'The Scan Service POSTs to the address when a scan finishes, signed with the webhook’s secret (header X-Service-Signature). ' +
        'The receiver must be an HTTPS address on the public internet that answers within 10 seconds; redirects are not followed.',
      'An Apps Script web app cannot receive them: Google answers a POST to it with a redirect, which the service does not follow, ' +
        'and a web app cannot read the signature header.',
      'Use the example receiver that comes with this add-on’s source (examples/webhook-receiver: a small Node server that checks the ' +
        'signature and logs or saves each scan), your own server, or an automation service (such as Zapier or Make) that gives you an HTTPS webhook address.',
    ],
    // The contract's rule (scan-service-api.md 4.3 rule 1), as address.ts checks it.
    address: 'HTTPS on the public internet: no http://, no private or local addresses (such as localhost or 192.168.x.x).',
    test: [
      'Setting up Zapier or Make? Give it this sample of the event (Make: "Generate" the data structure from it; Zapier: map these fields, or wait for the first real event).',
      'The add-on cannot send a test event to your address: the Scan Service has no test delivery, and Google lets an add-on reach only the Scan Service. ' +
        'The first real event comes when a scan finishes; a scan of one row is the quickest way to get one.',
    ],
    sample: JSON.stringify(SAMPLE_EVENT, null, 2),
    secretOnce: 'Copy it now and put it in your receiver: it will not be shown again. The add-on does not keep it.',
    copyByHand: 'Select the secret and copy it (Ctrl+C or ⌘C).',
    regenerate:
      '"? The old one stops working at once: deliveries are signed with the new one, and your receiver refuses them until it has it.',
    delete: '"? Its address gets no more notifications. This cannot be undone.',
  };
}

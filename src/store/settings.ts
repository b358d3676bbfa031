/**
 * The user's settings as stored: ONE user property (`scan.settings`, JSON), so reading the settings
 * is one property read. Pure: the store comes in as an argument.
 *
 * Where the key lives: only here, in the user's own properties (per Google account and add-on).
 * Never in cells, document properties, logs or messages.
 */
import type { Problem } from '../api/problems';
import { findMarketplace } from '../../contract/marketplaces';
import type { PropertiesLike } from '../api/services';
import { SETTINGS_KEY } from './keys';

/** Marketplace used until the user picks one. */
export const FALLBACK_MARKETPLACE = 'US';

export interface StoredSettings {
  /** '' when none saved. */
  apiKey: string;
  /** Base address, normalised (no trailing slash). */
  serviceUrl: string;
  /** Marketplace code. */
  marketplace: string;
}

/** Reads the settings; missing or unreadable parts get the defaults. */
export function readStoredSettings(props: PropertiesLike, defaultServiceUrl: string): StoredSettings {
  let raw: Record<string, unknown> = {};
  const text = props.getProperty(SETTINGS_KEY);
  if (text) {
    try {
      const v = JSON.parse(text);
      if (v && typeof v === 'object' && !Array.isArray(v)) raw = v as Record<string, unknown>;
    } catch (_e) {
      raw = {};
    }
  }
  const apiKey = typeof raw.apiKey === 'string' ? raw.apiKey : '';
  const serviceUrl = typeof raw.serviceUrl === 'string' && raw.serviceUrl ? raw.serviceUrl : defaultServiceUrl.replace(/\/+$/, '');
  const m = typeof raw.marketplace === 'string' ? findMarketplace(raw.marketplace) : undefined;
  return { apiKey, serviceUrl, marketplace: m ? m.code : FALLBACK_MARKETPLACE };
}

export function encodeStoredSettings(s: StoredSettings): string {
  return JSON.stringify({ v: 1, apiKey: s.apiKey, serviceUrl: s.serviceUrl, marketplace: s.marketplace });
}

/** The problem of a call that cannot be made because no key is saved. */
export function noKeyProblem(): Problem {
  return {
    kind: 'no-key',
    openSettings: true,
    message:
      'No API key is saved yet. Open Extensions > Product Sourcing Scan > Settings and paste the key from Integrations > API Access.',
  };
}

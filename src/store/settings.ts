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
import { record } from './records';
import { isObject } from '../api/read';

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

/** The settings record; missing or unreadable parts read as the defaults ('' for the address: the caller's default). */
function settingsOf(v: unknown): StoredSettings {
  const raw = isObject(v) ? v : {};
  const m = typeof raw.marketplace === 'string' ? findMarketplace(raw.marketplace) : undefined;
  return {
    apiKey: typeof raw.apiKey === 'string' ? raw.apiKey : '',
    serviceUrl: typeof raw.serviceUrl === 'string' ? raw.serviceUrl : '',
    marketplace: m ? m.code : FALLBACK_MARKETPLACE,
  };
}

export const STORED_SETTINGS = record<StoredSettings>(SETTINGS_KEY, { decode: settingsOf, encode: (s) => encodeStoredSettings(s) });

/** Reads the settings; missing or unreadable parts get the defaults. */
export function readStoredSettings(props: PropertiesLike, defaultServiceUrl: string): StoredSettings {
  const s = STORED_SETTINGS.get(props) || settingsOf(null);
  return { ...s, serviceUrl: s.serviceUrl || defaultServiceUrl.replace(/\/+$/, '') };
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

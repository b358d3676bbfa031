/**
 * The marketplaces the Scan Service knows: the one place this fact lives.
 * Used by the add-on (src/) and by the local Scan Service (emulator/service).
 * Codes and numeric ids come from the vendor's public pages (shared/reference/service-silent-parts.md).
 * Pure data and lookups: nothing here runs at load time beyond building constants.
 */
export interface Marketplace {
  /** Code used in requests, e.g. "US". */
  readonly code: string;
  /** Numeric id used in responses. */
  readonly id: number;
  readonly name: string;
  /** ISO 4217 currency of prices on that marketplace. */
  readonly currency: string;
  /** Sheets number format for money in that currency. */
  readonly moneyFormat: string;
  /** Host of the retail site, for product links (https://HOST/dp/ASIN). */
  readonly domain: string;
}

export const MARKETPLACES: readonly Marketplace[] = [
  { code: 'US', id: 1, name: 'United States', currency: 'USD', moneyFormat: '"$"#,##0.00', domain: 'www.amazon.com' },
  { code: 'CA', id: 2, name: 'Canada', currency: 'CAD', moneyFormat: '"CA$"#,##0.00', domain: 'www.amazon.ca' },
  { code: 'MX', id: 3, name: 'Mexico', currency: 'MXN', moneyFormat: '"MX$"#,##0.00', domain: 'www.amazon.com.mx' },
  { code: 'UK', id: 4, name: 'United Kingdom', currency: 'GBP', moneyFormat: '"£"#,##0.00', domain: 'www.amazon.co.uk' },
  { code: 'DE', id: 5, name: 'Germany', currency: 'EUR', moneyFormat: '#,##0.00" €"', domain: 'www.amazon.de' },
  { code: 'FR', id: 6, name: 'France', currency: 'EUR', moneyFormat: '#,##0.00" €"', domain: 'www.amazon.fr' },
  { code: 'IT', id: 7, name: 'Italy', currency: 'EUR', moneyFormat: '#,##0.00" €"', domain: 'www.amazon.it' },
  { code: 'ES', id: 8, name: 'Spain', currency: 'EUR', moneyFormat: '#,##0.00" €"', domain: 'www.amazon.es' },
  { code: 'NL', id: 9, name: 'Netherlands', currency: 'EUR', moneyFormat: '#,##0.00" €"', domain: 'www.amazon.nl' },
  { code: 'SE', id: 10, name: 'Sweden', currency: 'SEK', moneyFormat: '#,##0.00" kr"', domain: 'www.amazon.se' },
  { code: 'PL', id: 11, name: 'Poland', currency: 'PLN', moneyFormat: '#,##0.00" zł"', domain: 'www.amazon.pl' },
  { code: 'EG', id: 12, name: 'Egypt', currency: 'EGP', moneyFormat: '"E£"#,##0.00', domain: 'www.amazon.eg' },
  { code: 'TR', id: 13, name: 'Turkey', currency: 'TRY', moneyFormat: '"₺"#,##0.00', domain: 'www.amazon.com.tr' },
  { code: 'IN', id: 14, name: 'India', currency: 'INR', moneyFormat: '"₹"#,##0.00', domain: 'www.amazon.in' },
  { code: 'JP', id: 15, name: 'Japan', currency: 'JPY', moneyFormat: '"¥"#,##0', domain: 'www.amazon.co.jp' },
  { code: 'AU', id: 16, name: 'Australia', currency: 'AUD', moneyFormat: '"A$"#,##0.00', domain: 'www.amazon.com.au' },
  { code: 'SG', id: 17, name: 'Singapore', currency: 'SGD', moneyFormat: '"S$"#,##0.00', domain: 'www.amazon.sg' },
];

/** Finds a marketplace by code (case-insensitive) or numeric id (number or digit string). */
export function findMarketplace(codeOrId: string | number | null | undefined): Marketplace | undefined {
  if (codeOrId === null || codeOrId === undefined) return undefined;
  if (typeof codeOrId === 'number') return MARKETPLACES.find((m) => m.id === codeOrId);
  const s = String(codeOrId).trim();
  if (/^\d+$/.test(s)) return MARKETPLACES.find((m) => m.id === Number(s));
  const code = s.toUpperCase();
  // "GB" is what many people type for the UK marketplace.
  return MARKETPLACES.find((m) => m.code === code || (code === 'GB' && m.code === 'UK'));
}

/** Product page of an ASIN on a marketplace. */
export function productUrl(marketplace: Marketplace, asin: string): string {
  return 'https://' + marketplace.domain + '/dp/' + encodeURIComponent(asin);
}

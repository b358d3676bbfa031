/**
 * The sidebar's contract with the server functions of Settings: types only (nothing runs, nothing is
 * bundled). See src/app/protocol.ts for the rules every server function follows.
 */

export interface MarketplaceOption {
  code: string;
  name: string;
}

export interface SettingsView {
  /** The key with all but its last 4 characters masked ("••••••••1a2b"), or '' when none is saved. */
  apiKeyMasked: string;
  hasApiKey: boolean;
  serviceUrl: string;
  defaultMarketplace: string;
  marketplaces: MarketplaceOption[];
  /** Whether formulas in this spreadsheet run on this user's key (only the owner can change it). */
  formulaKeyShared: boolean;
  /**
   * True when this user may turn formulas on here: the owner, or a user Google does not name while
   * the file has an owner (settings/owner.ts). False in a shared drive and for known non-owners.
   */
  isOwner: boolean;
  /** What Settings says under Formulas: what turning it on means (quota), or why it is not offered. */
  formulaNote: string;
  /** Settings' explanations (help.ts): they come with the view so that they cost the page nothing. */
  help: SettingsHelp;
  /**
   * saveSettings with `check`: what the service said of the settings just saved, worded to follow
   * the save (the key works, or why it could not be checked: the service down or busy, no access to
   * the marketplace).
   */
  checked?: ConnectionResult;
}

export interface SettingsHelp {
  /** What the key is for, where to find it, where it is kept. */
  about: string;
  /** Under Formulas, for the owner before a key is saved. */
  formulasNeedKey: string;
  /** Under Webhooks, by "Manage webhooks". */
  webhooks: string;
  /** Remembered suppliers, when there are none. */
  noSuppliers: string;
  /** Remembered suppliers, under the list: where their choices come from, and what Forget resets. */
  forgetSupplier: string;
  /** The Convert view's introduction (it loads the settings for the marketplaces). */
  convert: string;
  /** The formulas option's label, and what switching it says. */
  formulasLabel: string;
  formulasOn: string;
  formulasOff: string;
  /** After Test connection with typed, unsaved settings: that they are not kept yet (ok / failed). */
  pressSave: string;
  nothingSaved: string;
}

export interface SettingsInput {
  /** A new key; '' or absent keeps the saved one. */
  apiKey?: string;
  serviceUrl?: string;
  defaultMarketplace?: string;
  /** Also turn on "Formulas in this spreadsheet run on my key" (the owner only; refused before saving otherwise). */
  formulasOnMyKey?: boolean;
  /**
   * Test the settings with the service before keeping them (the sidebar's Save does): a new key the
   * service refuses (401) is not saved, so a mistyped key never replaces a good one.
   */
  check?: boolean;
}

export interface ConnectionResult {
  ok: boolean;
  /** Plain language: what works, or what is wrong and what to do. */
  message: string;
  /** e.g. 'bad-key', 'unreachable', 'no-marketplace-access', 'bad-address'. */
  problem?: string;
}

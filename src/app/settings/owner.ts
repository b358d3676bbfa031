/**
 * Who may turn on "Formulas in this spreadsheet run on my key", and the share it writes.
 *
 * A custom function reads the spreadsheet OWNER's user properties, whoever recalculates (issue 5,
 * src/custom-functions/key.ts): so only a share the owner wrote reaches formulas, and the choice is one per
 * document. Recognising the owner:
 * - Spreadsheet.getOwner() is null for a file in a SHARED DRIVE (Google's reference). Such a file
 *   has no owner whose settings formulas could read (the local runtime gives its custom functions
 *   no one's user properties, chosen as the strict reading), so no key can reach its formulas: the
 *   option is not offered and Settings says why and what works instead (Convert selected column).
 * - Otherwise the user's email (userinfo.email scope) is compared with the owner's. Google withholds
 *   the email from some users (Session reference: "many cross-domain consumer cases"); then who is
 *   running is unknown, and the option is offered with its condition said ("works only if you own
 *   this spreadsheet"): refusing would lock out the very owner it cannot see, and a non-owner who
 *   turns it on harms no one (their share is never read; the formula cells keep saying formulas
 *   are off).
 * - A known email that is not the owner's: refused, naming the owner.
 */
import { FORMULA_SHARE } from '../../custom-functions/key';
import { activeSpreadsheet, activeUserEmail, userProperties } from '../../apps-script';
import { serviceSettings } from '../context';
import { recomputeFormulaCells } from './formula-cells';
import type { StoredSettings } from '../../store/settings';

export type FormulaOwnership =
  | { kind: 'owner'; owner: string }
  | { kind: 'unknown'; owner: string }
  | { kind: 'not-owner'; owner: string }
  | { kind: 'shared-drive' };

export function formulaOwnership(): FormulaOwnership {
  const owner = activeSpreadsheet().getOwner();
  if (!owner) return { kind: 'shared-drive' };
  const ownerEmail = owner.getEmail() || '';
  const me = activeUserEmail();
  if (!me) return { kind: 'unknown', owner: ownerEmail };
  return me === ownerEmail ? { kind: 'owner', owner: ownerEmail } : { kind: 'not-owner', owner: ownerEmail };
}

/** Whether this user may turn the option on (the owner, or an owner Google does not name). */
export function mayShare(o: FormulaOwnership): boolean {
  return o.kind === 'owner' || o.kind === 'unknown';
}

export const SHARED_DRIVE_FORMULAS =
  'This spreadsheet is in a shared drive, which has no owner: Google runs its formulas under no one\'s settings, so they cannot use an API key here. Use "Convert selected column" (it uses your own key), or keep a copy in your My Drive to use the formulas.';

/** What Settings says under "Formulas" about this user and document. */
export function formulaNote(o: FormulaOwnership, shared: boolean): string {
  switch (o.kind) {
    case 'shared-drive':
      return SHARED_DRIVE_FORMULAS;
    case 'not-owner':
      return (
        "Formulas such as =ASIN_FROM_UPC() run on the key of this spreadsheet's owner (" +
        o.owner +
        '), who turns them on in Settings. Until then, "Convert selected column" converts with your own key.'
      );
    default:
      return (
        (shared ? 'Formulas in this spreadsheet run on your key. ' : 'Formulas such as =ASIN_FROM_UPC() need this to run. ') +
        'Every recalculation, also by an editor, is a lookup on your Scan Service account and counts against your quota.' +
        (o.kind === 'unknown'
          ? ' Google did not tell the add-on who you are: this works only if you own this spreadsheet (' + o.owner + ').'
          : '')
      );
  }
}

/** The refusal for a user who may not turn the option on. */
export function shareRefusal(o: FormulaOwnership): string {
  if (o.kind === 'shared-drive') return SHARED_DRIVE_FORMULAS;
  return (
    'Only the owner of this spreadsheet' +
    (o.kind === 'not-owner' && o.owner ? ' (' + o.owner + ')' : '') +
    ' can let its formulas use their API key. Ask them to turn it on in Settings, or use "Convert selected column", which uses your own key.'
  );
}

/** Writes (on) or deletes (off) this user's share for this spreadsheet; on needs a saved key. */
export function writeFormulaShare(on: boolean, s: StoredSettings): void {
  const props = userProperties();
  const id = activeSpreadsheet().getId();
  if (on) {
    // The owner's current key; none saved -> the sidebar opens Settings (marker via asSidebarCall).
    const service = serviceSettings(s);
    FORMULA_SHARE.put(props, { v: 1, apiKey: service.apiKey, baseUrl: service.baseUrl, marketplace: s.marketplace }, id);
    // The cells that said "Formulas are off…" compute now, on this key.
    recomputeFormulaCells(activeSpreadsheet());
  } else FORMULA_SHARE.remove(props, id);
}

/**
 * What formula cells show when they hold no converted value. Short, lower-case, and never an
 * identifier, so a user can filter them out; each says what happened (and what to do, where
 * that is short enough for a cell). One place, so tests and the README quote the same words.
 */
import type { Problem } from '../api/problems';
import type { IdFail } from '../domain/ids';

/** Decision: an unmatched input shows this (not an empty cell), so "looked up, nothing there" differs from "blank input". */
export const NOT_FOUND = 'not found';

/** The key formulas use is missing: says what to do (the option's name as Settings shows it). */
export const NO_KEY_MESSAGE =
  'Formulas are off in this spreadsheet. Its owner turns them on in Extensions > Product Sourcing Scan > Settings ("Formulas in this spreadsheet run on my key"; recalculations then count against the owner\'s Scan Service quota), or use "Convert selected column", which uses your own key.';

/** The same in a shared drive, where no one's key can reach formulas (src/app/settings/owner.ts). */
export const SHARED_DRIVE_NO_KEY_MESSAGE =
  'Formulas cannot run in a shared drive: Google runs them under no one\'s settings, so they have no API key. Use Extensions > Product Sourcing Scan > "Convert selected column", or a copy in your My Drive.';

const FAIL_PHRASE: Record<IdFail['reason'], string> = {
  blank: 'blank',
  'scientific-notation': 'digits lost (scientific notation); format as plain text',
  'wrong-length': 'wrong length',
  'bad-check-digit': 'bad check digit',
  'not-numeric': 'letters in a barcode',
  'not-an-identifier': 'not an identifier',
  ambiguous: 'ambiguous',
  'unexpected-kind': 'other kind of identifier',
};

/** Cell text for an input that cannot be an identifier of the kind the formula takes. */
export function invalidText(kindName: string, fail: IdFail): string {
  if (fail.reason === 'scientific-notation') return 'invalid ' + kindName + ': ' + FAIL_PHRASE[fail.reason];
  if (fail.reason === 'unexpected-kind') {
    const m = /is an? ([A-Z0-9-]+),/.exec(fail.message);
    return 'invalid ' + kindName + ': ' + (m ? 'it is a' + (/^[AEIU]/.test(m[1]) ? 'n ' : ' ') + m[1] : FAIL_PHRASE[fail.reason]);
  }
  if (fail.reason === 'ambiguous' && fail.candidates)
    return 'invalid ' + kindName + ': could be ' + fail.candidates.map((c) => c.kind).join(' or ');
  return 'invalid ' + kindName + ': ' + FAIL_PHRASE[fail.reason];
}

/** Cell text for an input the service could not convert now (the problem of its batch). */
export function failedText(p: Problem): string {
  switch (p.kind) {
    case 'no-key':
      return NO_KEY_MESSAGE;
    case 'auth':
      return 'The API key shared for formulas in this spreadsheet was refused. The owner updates it in Extensions > Product Sourcing Scan > Settings.';
    case 'forbidden':
      return 'not converted: your Scan Service account has no access to this marketplace';
    case 'validation':
      return (
        'not converted: refused by the service' + (p.rows && p.rows.length === 1 && p.rows[0].message ? ' (' + p.rows[0].message + ')' : '')
      );
    case 'rate-limited':
      return 'not converted: service busy (too many requests); recalculate later';
    case 'server':
      return 'not converted: service error ' + (p.status ?? '') + '; recalculate later';
    case 'timeout':
      return 'not converted: the service did not answer in time; recalculate later';
    case 'unreachable':
      return p.blocked
        ? 'not converted: the service address is not one this add-on may call; the owner sets it in Settings'
        : p.noSuchHost
          ? 'not converted: the service address was not found; the owner checks it in Settings'
          : 'not converted: the service is not answering; recalculate later';
    case 'out-of-time':
      return 'not converted: time ran out (30 s per formula); recalculate, or use "Convert selected column"';
    case 'redirect':
      return 'not converted: the service address redirects; fix it in Settings';
    case 'not-found':
    case 'bad-response':
      return 'not converted: unexpected answer from the service' + (p.status ? ' (' + p.status + ')' : '');
  }
}

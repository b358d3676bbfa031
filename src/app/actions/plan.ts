/**
 * Row actions, pure: from the selected rows of a result tab (read by header) to the entries of ONE
 * list they change, with what each entry was before (for undo) and the words the user reads before
 * it happens. Also the marks a result row shows from the list tables (Tags, Note, List).
 *
 * Keys and values are the lists sync's own (../lists/kinds.ts), so what an action writes is exactly
 * what the next sync reads.
 */
import { ASIN_MAX, ASIN_MIN, shownText, headerKey, SEP, splitKey, TAG_NAME_MAX, tagNames, TEXT_MAX, type ListId } from '../lists/kinds';

export type RowActionName = 'blockBrands' | 'blockAsins' | 'markNotMatch' | 'confirmMatch' | 'setUnitsPerOrder' | 'addTags' | 'addNote';

export const ROW_ACTIONS: { [A in RowActionName]: { list: ListId; label: string; needs: 'brand' | 'asin' | 'identifier'; ask?: string } } =
  {
    blockBrands: { list: 'brands', label: 'Block brand', needs: 'brand' },
    blockAsins: { list: 'asins', label: 'Block ASIN', needs: 'asin' },
    markNotMatch: { list: 'matches', label: 'Not a match', needs: 'identifier' },
    confirmMatch: { list: 'matches', label: 'Confirm match', needs: 'identifier' },
    setUnitsPerOrder: {
      list: 'multipack',
      label: 'Set units per order',
      needs: 'asin',
      ask: 'Units per order (a whole number, 1 or more)',
    },
    addTags: { list: 'tags', label: 'Add tags', needs: 'asin', ask: 'Tags to add (separated by commas)' },
    addNote: { list: 'notes', label: 'Add note', needs: 'asin', ask: 'Note' },
  };

export function rowAction(name: unknown): RowActionName {
  if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(ROW_ACTIONS, name)) return name as RowActionName;
  throw new Error(`Unknown row action "${String(name)}". Actions: ${Object.keys(ROW_ACTIONS).join(', ')}.`);
}

/** A selected row of a result tab, by header. */
export interface ResultRow {
  row: number;
  asin: string;
  brand: string;
  identifier: string;
}

/** Result-tab columns (0-based) the actions and marks use; -1 when absent. */
export interface ResultColumns {
  asin: number;
  brand: number;
  identifier: number;
  tags: number;
  note: number;
  mark: number;
}
/**
 * Headers of the mark columns. Not plain "Tags"/"Note": a scan's custom columns are the supplier's
 * own headers, and a price list with a "Note" column is common (its cells must never be overwritten).
 */
export const MARK_HEADERS = { tags: 'List tags', note: 'List note', mark: 'List' } as const;

export function resultColumnsOf(header: readonly unknown[]): ResultColumns {
  const norm = header.map(headerKey);
  const at = (h: string) => norm.indexOf(headerKey(h));
  // The mark columns are the add-on's, added after every other column: the last of a name is ours.
  const last = (h: string) => norm.lastIndexOf(headerKey(h));
  return {
    asin: at('ASIN'),
    brand: at('Brand'),
    identifier: at('Identifier'),
    tags: last(MARK_HEADERS.tags),
    note: last(MARK_HEADERS.note),
    mark: last(MARK_HEADERS.mark),
  };
}

export function resultRows(cols: ResultColumns, values: readonly unknown[][], firstRow: number): ResultRow[] {
  const get = (r: readonly unknown[], c: number) => (c >= 0 ? shownText(r[c]) : '');
  return values.map((r, i) => ({
    row: firstRow + i,
    asin: get(r, cols.asin),
    brand: get(r, cols.brand),
    identifier: get(r, cols.identifier),
  }));
}

/** One entry change: the value before (null: none) and after (null: removed). */
export interface Change {
  key: string;
  before: string | null;
  after: string | null;
}

export interface ActionPlan {
  action: RowActionName;
  list: ListId;
  marketplace: string;
  /** Entries that change (entries already as asked are left out). */
  changes: Change[];
  /** Rows that were skipped, in words ("2 of the 5 selected rows have no brand: skipped"). */
  skipped: string[];
  /** What is about to happen, in words. */
  summary: string;
  selected: number;
}

/** What the user typed for an action that asks (units, tags, note); checked with the service's rules. */
export function checkArgs(action: RowActionName, args: unknown): string {
  const text =
    args === null || args === undefined
      ? ''
      : typeof args === 'string' || typeof args === 'number'
        ? String(args)
        : Array.isArray(args)
          ? args.map(String).join(', ')
          : '';
  if (action === 'setUnitsPerOrder') {
    const t = text.trim();
    const n = Number(t);
    if (!t || !Number.isInteger(n) || n < 1) throw new Error(`Units per order must be a whole number, 1 or more (got "${t}").`);
    return String(n);
  }
  if (action === 'addTags') {
    const names = tagNames(text);
    if (!names.length) throw new Error('Type one or more tag names, separated by commas.');
    const long = names.find((n) => n.length > TAG_NAME_MAX);
    if (long) throw new Error(`The tag "${long.slice(0, 20)}…" is over ${TAG_NAME_MAX} characters.`);
    return names.join(', ');
  }
  if (action === 'addNote') {
    if (!text.trim()) throw new Error('Type the note.');
    if (text.length > 10_000) throw new Error('A note holds at most 10,000 characters.');
    return text;
  }
  return '';
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

function listed(items: string[]): string {
  const shown = items.slice(0, 5).join(', ');
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}

/**
 * Plans an action on the selected rows. `current`: the list table's entries (key -> value) as
 * they are now; `notesOf`: for notes, nothing is keyed by ASIN, every note is a new one.
 */
export function planAction(
  action: RowActionName,
  arg: string,
  rows: readonly ResultRow[],
  marketplace: string,
  current: ReadonlyMap<string, string>,
): ActionPlan {
  const def = ROW_ACTIONS[action];
  const skipped: string[] = [];
  const missing = { brand: 0, asin: 0, identifier: 0, badAsin: 0, longBrand: 0 };
  const changes: Change[] = [];
  const seen = new Set<string>();
  const labels: string[] = [];
  let already = 0;
  for (const r of rows) {
    let key: string;
    let value: string;
    let label: string;
    if (def.needs === 'brand') {
      if (!r.brand) {
        missing.brand++;
        continue;
      }
      if (r.brand.length > TEXT_MAX) {
        missing.longBrand++;
        continue;
      }
      key = marketplace + SEP + r.brand;
      value = '';
      label = r.brand;
    } else {
      if (!r.asin) {
        missing.asin++;
        continue;
      }
      if (r.asin.length < ASIN_MIN || r.asin.length > ASIN_MAX) {
        missing.badAsin++;
        continue;
      }
      if (def.needs === 'identifier') {
        if (!r.identifier || r.identifier.length > TEXT_MAX) {
          missing.identifier++;
          continue;
        }
        key = marketplace + SEP + r.identifier + SEP + r.asin;
        value = action === 'confirmMatch' ? 'TRUE' : 'FALSE';
        label = r.identifier + ' → ' + r.asin;
      } else if (action === 'addNote') {
        // Every note is a new one (an ASIN may have several); the same ASIN twice in a selection gets one.
        key = 'new:' + r.asin;
        value = marketplace + SEP + r.asin + SEP + arg;
        label = r.asin;
      } else {
        key = marketplace + SEP + r.asin;
        value = action === 'addTags' ? tagNames((current.get(key) ?? '') + ',' + arg).join(', ') : arg;
        label = r.asin;
      }
    }
    if (seen.has(key)) continue;
    seen.add(key);
    const before = action === 'addNote' ? null : (current.get(key) ?? null);
    if (before === value) {
      already++;
      continue;
    }
    changes.push({ key, before, after: value });
    labels.push(label);
  }
  const n = rows.length;
  const skip = (count: number, what: string) => {
    if (count)
      skipped.push(
        n === 1
          ? `The selected row has ${what}: skipped`
          : `${count} of the ${n} selected rows ${count === 1 ? 'has' : 'have'} ${what}: skipped`,
      );
  };
  skip(missing.brand, 'no brand');
  skip(missing.longBrand, `a brand over ${TEXT_MAX} characters`);
  skip(missing.asin, 'no ASIN');
  skip(missing.badAsin, `an ASIN that is not ${ASIN_MIN} to ${ASIN_MAX} characters long`);
  skip(missing.identifier, 'no identifier');
  if (already) skipped.push(`${plural(already, 'entry', 'entries')} ${already === 1 ? 'is' : 'are'} already in the list as asked`);
  const count = changes.length;
  let verb: string;
  switch (action) {
    case 'blockBrands':
      verb = `Block ${plural(count, 'brand')}`;
      break;
    case 'blockAsins':
      verb = `Block ${plural(count, 'ASIN')}`;
      break;
    case 'markNotMatch':
      verb = `Mark ${plural(count, 'pairing')} as not a match`;
      break;
    case 'confirmMatch':
      verb = `Confirm ${plural(count, 'pairing')} as a match`;
      break;
    case 'setUnitsPerOrder':
      verb = `Set ${arg} units per order for ${plural(count, 'ASIN')}`;
      break;
    case 'addTags':
      verb = `Tag ${plural(count, 'ASIN')} with ${arg}`;
      break;
    default:
      verb = `Add a note to ${plural(count, 'ASIN')}`;
  }
  const summary = count ? `${verb} (${marketplace}): ${listed(labels)}` : 'Nothing to do';
  return { action, list: def.list, marketplace, changes, skipped, summary, selected: n };
}

// ---- marks --------------------------------------------------------------------------------------

/** What the list tables say, per marketplace and ASIN / brand / pairing. */
export interface ListFacts {
  tags: ReadonlyMap<string, string>;
  /** marketplace\tASIN -> note texts. */
  notes: ReadonlyMap<string, string[]>;
  brands: ReadonlySet<string>;
  asins: ReadonlySet<string>;
  /** marketplace\tidentifier\tASIN -> TRUE / FALSE. */
  matches: ReadonlyMap<string, string>;
}

/** Notes keyed by marketplace and ASIN, from the notes table's entries (value: marketplace, ASIN, text). */
export function notesByAsin(entries: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  entries.forEach((v) => {
    const [mp, asin] = splitKey(v);
    const k = mp + SEP + asin;
    out.set(k, (out.get(k) || []).concat([v.slice(mp.length + asin.length + 2)]));
  });
  return out;
}

/** Tags, Note and List of one result row. */
export function marksOf(row: ResultRow, marketplace: string, facts: ListFacts): { tags: string; note: string; mark: string } {
  const k = marketplace + SEP + row.asin;
  const marks: string[] = [];
  if (row.brand && facts.brands.has(marketplace + SEP + row.brand)) marks.push('blocked brand');
  if (row.asin && facts.asins.has(k)) marks.push('blocked ASIN');
  if (row.asin && row.identifier && facts.matches.get(marketplace + SEP + row.identifier + SEP + row.asin) === 'FALSE')
    marks.push('not a match');
  const notes = row.asin ? facts.notes.get(k) : undefined;
  const note = notes ? notes.join('\n') : '';
  return {
    tags: row.asin ? (facts.tags.get(k) ?? '') : '',
    note: note.length > 5000 ? note.slice(0, 4999) + '…' : note,
    mark: marks.join(', '),
  };
}

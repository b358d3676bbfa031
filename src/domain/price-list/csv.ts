/**
 * RFC 4180 CSV, for the scan upload. Fields with a comma, a double quote, CR or LF are quoted,
 * quotes inside doubled; records end with CRLF (also the last one). Fields with leading or trailing
 * spaces are quoted as well, so that no reader trims them. Pure; nothing runs at load time.
 * parseCsv reads the service's CSV downloads into a tab (src/app/results/download-grids.ts) rather than
 * Utilities.parseCsv: Google documents nothing of how that one treats line breaks inside quoted
 * fields (titles carry them), and a malformed file must fail loudly here, not shift columns.
 */

/** One field as CSV text. */
export function csvField(value: string): string {
  if (/[",\r\n]/.test(value) || /^\s|\s$/.test(value)) return '"' + value.replace(/"/g, '""') + '"';
  return value;
}

/** CSV text of rows of fields; every record ends with CRLF. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  let out = '';
  for (const row of rows) out += row.map(csvField).join(',') + '\r\n';
  return out;
}

/**
 * Rows of an RFC 4180 text (CRLF, LF or CR line ends accepted). A final line end does not make an
 * empty record. Throws on a quote inside an unquoted field or an unterminated quoted field.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const n = text.length;
  let atFieldStart = true;
  while (i < n) {
    const c = text[i];
    if (atFieldStart && c === '"') {
      // Quoted field.
      i++;
      for (;;) {
        if (i >= n) throw new Error('CSV: unterminated quoted field in record ' + (rows.length + 1));
        const q = text[i];
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += q;
        i++;
      }
      atFieldStart = false;
      if (i < n && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        throw new Error('CSV: text after a closing quote in record ' + (rows.length + 1));
      }
      continue;
    }
    if (c === ',') {
      row.push(field);
      field = '';
      atFieldStart = true;
      i++;
    } else if (c === '\r' || c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      atFieldStart = true;
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      if (c === '"') throw new Error('CSV: quote inside an unquoted field in record ' + (rows.length + 1));
      field += c;
      atFieldStart = false;
      i++;
    }
  }
  if (!atFieldStart || field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

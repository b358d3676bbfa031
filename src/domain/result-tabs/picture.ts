/**
 * A product's picture (issue 36): the address of its first image, checked, and the cell that shows it.
 *
 * Why `=IMAGE("…")` and not an in-cell image (SpreadsheetApp.newCellImage()): the import writes its
 * rows with ONE setValues per block of up to 1,000 rows, and a formula is a value setValues takes
 * (developers.google.com/apps-script/reference/spreadsheet/range#setValues(Object)); IMAGE takes
 * the URL as a quoted string (support.google.com/docs/answer/3093333). Google's CellImage pages
 * (developers.google.com/apps-script/reference/spreadsheet/cell-image-builder and /cell-image)
 * document an in-cell image one value at a time and say nothing of a block of 1,000, and what they
 * give back is a Google-hosted, account-tagged URL that expires; an IMAGE formula costs no extra
 * call, is a sheet formula the overview can point at, and a saved .xlsx keeps it.
 *
 * Security: the address is the add-on's own string, made only from a link of the service's answer
 * that passes pictureAddress: https, a plain host, and only characters that cannot end a string
 * literal or the formula (no quotes, no backslash, no control or space characters), at most
 * PICTURE_ADDRESS_MAX characters. Anything else gives no picture (the cell stays blank). Pure.
 */
import { asRecord } from '../price-list/decide';

/** The longest address taken (Amazon's image links are under 100 characters). */
export const PICTURE_ADDRESS_MAX = 500;

/** A thumbnail row's height and the picture column's width, in pixels (the service's thumbnails are 75 px). */
export const PICTURE_ROW_HEIGHT = 60;
export const PICTURE_COLUMN_WIDTH = 64;

/** https://host[:port]/path[?query]: only URL characters that are inert inside a formula's string. */
const ADDRESS =
  /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+(?::\d{1,5})?(?:\/[A-Za-z0-9\-._~%/+,;=:@!$*&]*)?(?:\?[A-Za-z0-9\-._~%/+,;=:@!$*&?]*)?$/;

/**
 * The checked address of a picture link, or null: a string, https, a host name, and no character
 * that could end the formula's string or the formula (quotes, backslash, brackets, spaces, control
 * characters), nor one that is not plain ASCII; at most PICTURE_ADDRESS_MAX characters.
 */
export function pictureAddress(link: unknown): string | null {
  if (typeof link !== 'string' || link.length > PICTURE_ADDRESS_MAX) return null;
  return ADDRESS.test(link) ? link : null;
}

/** The link of one element of `images`, in either shape: a string, {url} / {link}, or the vendor's {image: [{link, variant}]} (MAIN first). */
function linkOf(entry: unknown): unknown {
  if (typeof entry === 'string') return entry;
  const o = asRecord(entry);
  if (Array.isArray(o.image)) {
    const main = o.image.find((i) => asRecord(i).variant === 'MAIN');
    return linkOf(main ?? o.image[0]);
  }
  return o.url ?? o.link;
}

/** The checked address of a product's first image, or null when it has none that passes pictureAddress. */
export function firstPicture(product: Record<string, unknown>): string | null {
  const images = product.images;
  if (!Array.isArray(images) || images.length === 0) return null;
  return pictureAddress(linkOf(images[0]));
}

/** The picture cell: `=IMAGE("<checked address>")` (mode 1: fitted in the cell), or '' for no address. */
export function pictureCell(address: string | null): string {
  const checked = pictureAddress(address);
  return checked ? `=IMAGE("${checked}")` : '';
}

const IMAGE_FORMULA = /^=\s*IMAGE\(\s*"([^"]*)"\s*\)$/i;

/**
 * The regular expression (RE2, as Sheets' REGEXEXTRACT takes it: support.google.com/docs/answer/3098244)
 * of a Picture cell's formula as the add-on writes it, `=IMAGE("<address>")`, its one group the
 * address, which must pass pictureAddress's rules. For a sheet formula that reads the address back
 * (the overview's top products): it holds no quote (\x22 stands for one), so it is a plain string
 * literal. Length is not checked (the cell was written by pictureCell or by hand; either way the
 * address is a value, never formula text).
 */
export function pictureFormulaPattern(): string {
  return `^=IMAGE\\(\\x22(${ADDRESS.source.slice(1, -1)})\\x22\\)$`;
}

/**
 * The address in a Picture cell's formula, checked again (anyone may have edited the cell): the
 * string literal of `=IMAGE("…")` when it is a usable address, else null.
 */
export function pictureOfFormula(formula: unknown): string | null {
  const m = typeof formula === 'string' ? IMAGE_FORMULA.exec(formula.trim()) : null;
  return m ? pictureAddress(m[1]) : null;
}

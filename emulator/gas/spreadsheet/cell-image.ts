/**
 * In-cell images: `SpreadsheetApp.newCellImage()` (a CellImageBuilder) builds a CellImage, which
 * `Range.setValue(s)` puts in a cell and `getValue(s)` gives back. Google's pages
 * (developers.google.com/apps-script/reference/spreadsheet/cell-image-builder and .../cell-image):
 * a source URL and alt text; `getUrl` is the source URL given at insertion; `getContentUrl` is a
 * Google-hosted URL of the stored picture, which a CellImage not yet in a cell has none of (it
 * throws on Google: gas-fakes test/testsheetsvui.js, "CellImage and CellImageBuilder methods").
 * The local runtime has no image host: the content URL of an image in a cell is its source URL.
 */
import type { Ctx } from './context';
import type { CellImageModel } from './model';

abstract class CellImageParts {
  constructor(
    protected readonly ctx: Ctx,
    readonly _m: CellImageModel,
    /** True for an image read from a cell (it has a content URL). */
    protected readonly stored: boolean,
  ) {}
  /** ValueType.IMAGE, as on Google. */
  get valueType(): string {
    return 'IMAGE';
  }
  getAltTextTitle(): string | null {
    return this._m.title;
  }
  getAltTextDescription(): string | null {
    return this._m.description;
  }
  getContentUrl(): string {
    if (!this.stored || this._m.url === null) throw this.ctx.error('The image has no content URL until it is stored in a cell.');
    return this._m.url;
  }
  getUrl(): string | null {
    return this._m.url;
  }
  toBuilder(): CellImageBuilderImpl {
    return new CellImageBuilderImpl(this.ctx, { ...this._m });
  }
}

export class CellImageImpl extends CellImageParts {
  toString(): string {
    return 'CellImage';
  }
}

export class CellImageBuilderImpl extends CellImageParts {
  constructor(ctx: Ctx, m: CellImageModel = { url: null, title: null, description: null }) {
    super(ctx, m, false);
  }
  toString(): string {
    return 'CellImageBuilder';
  }
  setSourceUrl(url: string): CellImageBuilderImpl {
    this._m.url = url === null || url === undefined ? null : String(url);
    return this;
  }
  setAltTextTitle(title: string): CellImageBuilderImpl {
    this._m.title = String(title);
    return this;
  }
  setAltTextDescription(description: string): CellImageBuilderImpl {
    this._m.description = String(description);
    return this;
  }
  build(): CellImageImpl {
    return new CellImageImpl(this.ctx, { ...this._m }, false);
  }
}

/** The CellImage getValue gives for a cell holding `m`. */
export function storedCellImage(ctx: Ctx, m: CellImageModel): CellImageImpl {
  return new CellImageImpl(ctx, { ...m }, true);
}

/**
 * Chosen (Google documents no .xlsx form of an in-cell image): a saved workbook holds it as
 * `=IMAGE("<source URL>")`, which draws the same picture wherever the file is opened; loaded again
 * it is that formula, not a CellImage. The URL is a string literal (quotes doubled).
 */
export function imageFormulaOf(m: CellImageModel): string | null {
  return m.url === null ? null : `IMAGE("${m.url.replace(/"/g, '""')}")`;
}

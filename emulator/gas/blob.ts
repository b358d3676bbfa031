/** Utilities.newBlob / HTTPResponse.getBlob / File.getBlob: Apps Script's Blob. */
import type { RuntimeState } from './execution';
import { decodeBytes, encodeString, fromBytes, toSignedBytes } from './bytes';

export class LocalBlob {
  /** @internal raw bytes */
  _data: Buffer;
  private contentType: string | null;
  private name: string | null;

  constructor(
    private readonly state: RuntimeState,
    data: Buffer,
    contentType?: string | null,
    name?: string | null,
  ) {
    this._data = data;
    this.contentType = contentType ?? null;
    this.name = name ?? null;
  }

  getBytes(): number[] {
    return toSignedBytes(this.state.realm, this._data);
  }
  setBytes(data: number[]): this {
    this._data = fromBytes(data);
    return this;
  }
  getDataAsString(charset?: string): string {
    return decodeBytes(this._data, charset);
  }
  setDataFromString(s: string, charset?: string): this {
    this._data = encodeString(s, charset);
    return this;
  }
  getContentType(): string | null {
    return this.contentType;
  }
  setContentType(t: string | null): this {
    this.contentType = t;
    return this;
  }
  getName(): string | null {
    return this.name;
  }
  setName(n: string): this {
    this.name = n;
    return this;
  }
  /**
   * Apps Script converts only to a few types (PDF, images); this runtime converts nothing, so asking
   * for a different type fails as an unsupported conversion does. (message chosen, Google-like)
   */
  getAs(contentType: string): LocalBlob {
    if (String(contentType) !== this.contentType) {
      const e = new this.state.realm.Error(`Converting from ${this.contentType ?? 'unknown'} to ${contentType} is not supported.`);
      e.name = 'Exception';
      throw e;
    }
    return this.copyBlob();
  }
  /** Sets the content type from the name's extension; null when unknown. */
  setContentTypeFromExtension(): LocalBlob {
    const ext = /\.([A-Za-z0-9]+)$/.exec(this.name ?? '')?.[1]?.toLowerCase();
    const types: Record<string, string> = {
      csv: 'text/csv',
      txt: 'text/plain',
      html: 'text/html',
      htm: 'text/html',
      json: 'application/json',
      pdf: 'application/pdf',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      png: 'image/png',
      jpg: 'image/jpeg',
      jpeg: 'image/jpeg',
      gif: 'image/gif',
      zip: 'application/zip',
      xml: 'application/xml',
    };
    if (!ext || !types[ext]) {
      const e = new this.state.realm.Error(`Blob object must have non-null content type for this operation.`);
      e.name = 'Exception';
      throw e;
    }
    this.contentType = types[ext];
    return this;
  }
  copyBlob(): LocalBlob {
    return new LocalBlob(this.state, Buffer.from(this._data), this.contentType, this.name);
  }
  getBlob(): LocalBlob {
    return this;
  }
  isGoogleType(): boolean {
    return false;
  }
  getAllBlobs(): LocalBlob[] {
    return this.state.realm.Array.of(this) as LocalBlob[];
  }
  toString(): string {
    return 'Blob';
  }
}

export function isBlob(v: unknown): v is LocalBlob {
  return v instanceof LocalBlob;
}

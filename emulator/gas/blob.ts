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

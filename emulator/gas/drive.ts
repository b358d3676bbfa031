/**
 * DriveApp, enough for saving downloads: createFile and getFileById, in memory. With `mirrorDir`
 * every created file is also written there (the headless runner saves downloads that way).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { RuntimeState } from './execution';
import { gasError } from './realm';
import { requireService } from './permissions';
import { LocalBlob, isBlob } from './blob';
import { encodeString } from './bytes';

export interface DriveFileRecord {
  id: string;
  name: string;
  mimeType: string;
  data: Buffer;
  owner: string;
  created: number;
  trashed: boolean;
  /** Where the mirror copy was written, if any. */
  mirrorPath: string | null;
}

export class DriveStore {
  readonly files = new Map<string, DriveFileRecord>();
  constructor(readonly mirrorDir: string | null) {}
  byName(name: string): DriveFileRecord[] {
    return [...this.files.values()].filter((f) => f.name === name);
  }
}

class LocalFile {
  constructor(
    private readonly state: RuntimeState,
    private readonly rec: DriveFileRecord,
  ) {}
  getId(): string {
    return this.rec.id;
  }
  getName(): string {
    return this.rec.name;
  }
  /** A Drive file reads as its name (gas-fakes test/testdrive.js: the root folder's toString() is "My Drive"). */
  toString(): string {
    return this.rec.name;
  }
  setName(name: string): this {
    this.rec.name = String(name);
    return this;
  }
  getUrl(): string {
    return driveFileUrl(this.rec.id);
  }
  getDownloadUrl(): string {
    return `https://drive.google.com/uc?id=${this.rec.id}&export=download`;
  }
  getMimeType(): string {
    return this.rec.mimeType;
  }
  getSize(): number {
    return this.rec.data.length;
  }
  getBlob(): LocalBlob {
    return new LocalBlob(this.state, Buffer.from(this.rec.data), this.rec.mimeType, this.rec.name);
  }
  getAs(contentType: string): LocalBlob {
    return this.getBlob().getAs(contentType);
  }
  getDateCreated(): Date {
    return new this.state.realm.Date(this.rec.created);
  }
  getOwner() {
    const email = this.rec.owner;
    return { getEmail: () => email };
  }
  isTrashed(): boolean {
    return this.rec.trashed;
  }
  setTrashed(trashed: boolean): this {
    this.rec.trashed = Boolean(trashed);
    return this;
  }
}

function safeName(name: string): string {
  return name.replace(/[/\\:*?"<>|\x00-\x1f]/g, '_').slice(0, 200) || 'untitled';
}

/** Stores a new file (and its mirror copy); shared by DriveApp and the advanced Drive service. */
export function storeDriveFile(state: RuntimeState, store: DriveStore, name: string, data: Buffer, mimeType: string): DriveFileRecord {
  const rec: DriveFileRecord = {
    id: randomBytes(24).toString('base64url').slice(0, 33),
    name,
    mimeType,
    data,
    owner: state.exec().user,
    created: state.clock.now(),
    trashed: false,
    mirrorPath: null,
  };
  if (store.mirrorDir) {
    fs.mkdirSync(store.mirrorDir, { recursive: true });
    let p = path.join(store.mirrorDir, safeName(name));
    // Drive allows equal names; the mirror keeps both. (chosen)
    if (fs.existsSync(p)) p = path.join(store.mirrorDir, `${rec.id}-${safeName(name)}`);
    fs.writeFileSync(p, data);
    rec.mirrorPath = p;
  }
  store.files.set(rec.id, rec);
  return rec;
}

/** The link Drive gives a file (DriveApp's getUrl, the API's webViewLink). */
export function driveFileUrl(id: string): string {
  return `https://drive.google.com/file/d/${id}/view?usp=drivesdk`;
}

export function createDriveApp(state: RuntimeState, store: DriveStore) {
  const use = () => {
    requireService(state, 'DriveApp');
    state.serviceCall();
  };
  function create(name: string, data: Buffer, mimeType: string): LocalFile {
    return new LocalFile(state, storeDriveFile(state, store, name, data, mimeType));
  }
  return {
    /**
     * createFile(blob) or createFile(name, content[, mimeType]); anything else gets Google's messages
     * (gas-fakes test/testdrive.js: `createFile()`, `createFile("")`, `createFile(blob, "")` don't
     * match the signature, `createFile(null, "")` is "Invalid argument: name", a blob without a name
     * "Blob object must have non-null name for this operation.").
     */
    createFile(...args: unknown[]): LocalFile {
      use();
      const [blobOrName, content, mimeType] = args;
      if (args.length === 1 && isBlob(blobOrName)) {
        const name = blobOrName.getName();
        if (name === null) throw gasError(state, 'Blob object must have non-null name for this operation.');
        return create(name, Buffer.from(blobOrName._data), blobOrName.getContentType() ?? 'application/octet-stream');
      }
      if (args.length < 2 || args.length > 3 || isBlob(blobOrName)) {
        const types = args.map((a) =>
          isBlob(a) ? 'Blob' : a === null || a === undefined ? 'null' : typeof a === 'string' ? 'String' : 'Object',
        );
        throw gasError(state, `The parameters (${types.join(',')}) don't match the method signature for DriveApp.createFile.`);
      }
      if (typeof blobOrName !== 'string') throw gasError(state, 'Invalid argument: name');
      return create(blobOrName, encodeString(String(content ?? '')), mimeType === undefined ? 'text/plain' : String(mimeType));
    },
    getFileById(id: string): LocalFile {
      use();
      const rec = store.files.get(String(id));
      if (!rec) throw gasError(state, 'No item with the given ID could be found, or you do not have permission to access it.'); // (chosen, Google-like)
      return new LocalFile(state, rec);
    },
  };
}

/** Global enums and ContentService (cheap, for completeness). */
import type { RuntimeState } from './execution';
import { requireService } from './permissions';

export const MimeTypeEnum = Object.freeze({
  CSV: 'text/csv',
  PLAIN_TEXT: 'text/plain',
  HTML: 'text/html',
  JAVASCRIPT: 'application/javascript',
  JSON: 'application/json',
  PDF: 'application/pdf',
  ZIP: 'application/zip',
  PNG: 'image/png',
  JPEG: 'image/jpeg',
  GIF: 'image/gif',
  SVG: 'image/svg+xml',
  MICROSOFT_EXCEL: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  MICROSOFT_EXCEL_LEGACY: 'application/vnd.ms-excel',
  GOOGLE_SHEETS: 'application/vnd.google-apps.spreadsheet',
  GOOGLE_DOCS: 'application/vnd.google-apps.document',
  FOLDER: 'application/vnd.google-apps.folder',
});

const ContentMimeType = Object.freeze({
  ATOM: 'ATOM',
  CSV: 'CSV',
  ICAL: 'ICAL',
  JAVASCRIPT: 'JAVASCRIPT',
  JSON: 'JSON',
  RSS: 'RSS',
  TEXT: 'TEXT',
  VCARD: 'VCARD',
  XML: 'XML',
});

class LocalTextOutput {
  private mime = ContentMimeType.TEXT as string;
  constructor(private content: string) {}
  getContent(): string {
    return this.content;
  }
  setContent(c: string): this {
    this.content = String(c);
    return this;
  }
  append(c: string): this {
    this.content += String(c);
    return this;
  }
  clear(): this {
    this.content = '';
    return this;
  }
  getMimeType(): string {
    return this.mime;
  }
  setMimeType(m: string): this {
    this.mime = String(m);
    return this;
  }
}

export function createContentService(state: RuntimeState) {
  return {
    MimeType: ContentMimeType,
    createTextOutput(content?: string): LocalTextOutput {
      requireService(state, 'ContentService');
      return new LocalTextOutput(content === undefined ? '' : String(content));
    },
  };
}

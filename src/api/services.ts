/**
 * The Apps Script services the client and the formulas use, as small interfaces, so that all logic
 * can be tested with fakes and the real globals are bound only in thin entry points.
 * The real UrlFetchApp, CacheService caches and Utilities.sleep satisfy these shapes.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One request as UrlFetchApp.fetchAll takes it (a subset of URLFetchRequest). */
export interface FetchRequest {
  url: string;
  method: HttpMethod;
  headers: { [name: string]: string };
  contentType?: string;
  /** JSON text; the upload's form (field -> string or Blob, sent as multipart/form-data) is set in its place by buildRequest. */
  payload?: string;
  /** Always true: the client classifies every status itself. */
  muteHttpExceptions: true;
  /** False: a redirect must not carry the bearer key to another address unseen. */
  followRedirects: false;
}

/** The part of HTTPResponse the client reads. */
export interface HttpResponseLike {
  getResponseCode(): number;
  getContentText(): string;
  getHeaders(): object;
}

/** UrlFetchApp: fetchAll sends in parallel and answers in order; it throws when any request cannot be made. */
export interface UrlFetchLike {
  fetchAll(requests: FetchRequest[]): HttpResponseLike[];
}

/** A CacheService cache (document, user or script cache). */
export interface CacheLike {
  getAll(keys: string[]): { [key: string]: string };
  putAll(values: { [key: string]: string }, expirationInSeconds?: number): void;
}

/** Utilities.sleep. */
export type Sleep = (ms: number) => void;

/** Milliseconds since the epoch (Date.now in Apps Script; a virtual clock in tests). */
export type Clock = () => number;

/** A string-valued property store (PropertiesService stores). */
export interface PropertiesLike {
  getProperty(key: string): string | null;
}

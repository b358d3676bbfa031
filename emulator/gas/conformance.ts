/// <reference types="google-apps-script" />
/**
 * Compile-time only: the services implement what @types/google-apps-script declares for the members
 * this runtime provides. (Where the typings differ from Google's documentation — getDocumentProperties
 * and getDocumentLock return null without a document — those members are checked separately.)
 */
import type { createUtilities } from './utilities';
import type { createCacheService } from './cache';
import type { createPropertiesService } from './properties';
import type { createLockService } from './lock';
import type { createSession } from './session';
import type { createMailApp } from './mail';
import type { createUrlFetchApp, LocalHttpResponse } from './urlfetch';
import type { LocalBlob } from './blob';
import type { LocalHtmlOutput } from './html';

type Conforms<Impl extends Spec, Spec> = Impl;
type NonNull<F> = F extends (...a: infer A) => infer R ? (...a: A) => NonNullable<R> : never;

export type Checks = [
  Conforms<
    ReturnType<typeof createUtilities>,
    Pick<
      GoogleAppsScript.Utilities.Utilities,
      | 'base64Encode'
      | 'base64Decode'
      | 'base64EncodeWebSafe'
      | 'base64DecodeWebSafe'
      | 'computeDigest'
      | 'computeHmacSha256Signature'
      | 'computeHmacSignature'
      | 'getUuid'
      | 'formatDate'
      | 'formatString'
      | 'parseCsv'
      | 'sleep'
    >
  >,
  Conforms<ReturnType<typeof createCacheService>, GoogleAppsScript.Cache.CacheService | { getDocumentCache(): null }>,
  Conforms<
    Omit<ReturnType<typeof createPropertiesService>, 'getDocumentProperties'>,
    Omit<GoogleAppsScript.Properties.PropertiesService, 'getDocumentProperties'>
  >,
  Conforms<
    NonNull<ReturnType<typeof createPropertiesService>['getDocumentProperties']>,
    GoogleAppsScript.Properties.PropertiesService['getDocumentProperties']
  >,
  Conforms<Omit<ReturnType<typeof createLockService>, 'getDocumentLock'>, Omit<GoogleAppsScript.Lock.LockService, 'getDocumentLock'>>,
  Conforms<NonNull<ReturnType<typeof createLockService>['getDocumentLock']>, GoogleAppsScript.Lock.LockService['getDocumentLock']>,
  Conforms<
    ReturnType<typeof createSession>,
    Pick<
      GoogleAppsScript.Base.Session,
      'getActiveUser' | 'getEffectiveUser' | 'getScriptTimeZone' | 'getTemporaryActiveUserKey' | 'getActiveUserLocale'
    >
  >,
  Conforms<ReturnType<typeof createMailApp>, Pick<GoogleAppsScript.Mail.MailApp, 'sendEmail' | 'getRemainingDailyQuota'>>,
  Conforms<ReturnType<typeof createUrlFetchApp>, Pick<GoogleAppsScript.URL_Fetch.UrlFetchApp, 'fetch' | 'fetchAll' | 'getRequest'>>,
  Conforms<
    LocalHttpResponse,
    Pick<GoogleAppsScript.URL_Fetch.HTTPResponse, 'getResponseCode' | 'getContentText' | 'getContent' | 'getHeaders' | 'getAllHeaders'>
  >,
  Conforms<LocalBlob, Pick<GoogleAppsScript.Base.Blob, 'getBytes' | 'getDataAsString' | 'getContentType' | 'getName' | 'isGoogleType'>>,
  Conforms<LocalHtmlOutput, Pick<GoogleAppsScript.HTML.HtmlOutput, 'getContent' | 'getTitle'>>,
];

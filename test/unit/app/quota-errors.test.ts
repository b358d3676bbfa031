/**
 * Google's daily-quota errors as the add-on recognises them (src/app/quota-errors.ts): the exact
 * texts of the local runtime (emulator/gas/quotas.ts, Google's messages) and nothing else.
 */
import { dailyQuotaOf, quotaErrorMessage } from '../../../src/app/quota-errors';
import { QUOTA_MESSAGES } from '../../../emulator/gas/quotas';

test('each daily-quota message of the runtime is recognised as its quota, also as String(e)', () => {
  expect(dailyQuotaOf(new Error(QUOTA_MESSAGES.urlFetchCalls))).toBe('urlfetch');
  expect(dailyQuotaOf('Exception: ' + QUOTA_MESSAGES.urlFetchCalls)).toBe('urlfetch');
  expect(dailyQuotaOf(new Error(QUOTA_MESSAGES.propertyReads))).toBe('properties');
  expect(dailyQuotaOf(new Error(QUOTA_MESSAGES.propertyWrites))).toBe('properties');
  expect(dailyQuotaOf(new Error(QUOTA_MESSAGES.triggerRuntimeMs))).toBe('runtime');
});

test('other limits and failures are not daily quotas', () => {
  expect(dailyQuotaOf(new Error('Exceeded maximum execution time'))).toBeNull();
  expect(
    dailyQuotaOf(new Error('Service invoked too many times in a short time: urlfetch. Try Utilities.sleep(1000) between calls.')),
  ).toBeNull();
  expect(dailyQuotaOf(new Error('Address unavailable: http://127.0.0.1:1/api'))).toBeNull();
  expect(dailyQuotaOf(new Error('There are too many scripts running simultaneously for this Google user account.'))).toBeNull();
});

test("the email recipients' day (MailApp, Google's Quotas page) is not URL Fetch's: imports and syncs go on", () => {
  expect(dailyQuotaOf(new Error(QUOTA_MESSAGES.emailRecipients))).toBeNull();
});

test('the sidebar message names the quota and says nothing was lost', () => {
  expect(quotaErrorMessage('urlfetch')).toBe(
    "Google's daily quota of URL Fetch calls for your account is used up (it is shared by all your scripts and add-ons), so this cannot be done now. Nothing was lost; try again after Google resets it, within 24 hours.",
  );
});

/**
 * Google's refusals of a trigger, as isTriggerLimit must recognise them: the 20 triggers per user and
 * script ("This script has too many triggers…", developers.google.com/apps-script/guides/services/quotas)
 * and an add-on's second time-driven trigger in a document, which public add-on issue trackers quote
 * as "This add-on has created too many time-based triggers in this document for this Google user
 * account." (github.com/ttsukagoshi/mail-merge-for-gmail/issues/165; rule on
 * developers.google.com/apps-script/guides/triggers/installable, "Triggers in add-ons").
 */
import { isTriggerLimit } from '../../../../src/app/trigger/install';
import { ADDON_ONE_PER_TYPE_MESSAGE, TOO_MANY_TRIGGERS_MESSAGE } from '../../../../emulator/gas/triggers';

test('both of Google\'s wordings are a trigger limit, with or without the "Exception: " prefix', () => {
  expect(isTriggerLimit(new Error(TOO_MANY_TRIGGERS_MESSAGE))).toBe(true);
  expect(isTriggerLimit(new Error(ADDON_ONE_PER_TYPE_MESSAGE))).toBe(true);
  expect(isTriggerLimit('Exception: ' + ADDON_ONE_PER_TYPE_MESSAGE)).toBe(true);
});

test('other failures are not', () => {
  expect(isTriggerLimit(new Error('You do not have permission to call ScriptApp.newTrigger.'))).toBe(false);
  expect(isTriggerLimit(new Error('The recurrence interval for an Add-on trigger must be at least one hour.'))).toBe(false);
});

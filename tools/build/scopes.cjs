// THE OAuth scopes the add-on asks for: esbuild.config.mjs writes them into dist/appsscript.json
// (`oauthScopes`), README's deploy section shows this table, and test/build/scopes.test.ts checks
// that they are exactly what the built bundle's service calls need (by the local runtime's table of
// Google's per-method scopes, emulator/gas/scopes.ts). `consent` is the line Google's consent screen
// shows for the scope. `need` names the feature that asks for the scope before its calls
// (src/domain/consent/): a seller may untick it at the consent screen (granular consent) and keep the rest
// of the add-on; the build gives the bundle this table (ADDON_SCOPES).
'use strict';

const ADDON_SCOPES = [
  {
    scope: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
    feature:
      'Reading the price list and writing result tabs, lists and row actions in the spreadsheet the add-on is used in (never any other file)',
    consent: 'View and manage spreadsheets that this application has been installed in',
  },
  {
    scope: 'https://www.googleapis.com/auth/script.external_request',
    feature: 'Every call to the Scan Service (scans, imports, formulas, lists, webhooks), only to the addresses in urlFetchWhitelist',
    consent: 'Connect to an external service',
  },
  {
    scope: 'https://www.googleapis.com/auth/script.container.ui',
    feature: 'The Extensions menu, the sidebar and its dialogs',
    consent: 'Display and run third-party web content in prompts and sidebars inside Google applications',
  },
  {
    scope: 'https://www.googleapis.com/auth/script.scriptapp',
    need: 'trigger',
    feature: 'The hourly trigger that imports finished scans and syncs lists while the sidebar is closed',
    consent: 'Allow this application to run when you are not present',
  },
  {
    scope: 'https://www.googleapis.com/auth/userinfo.email',
    feature:
      "Recognising the spreadsheet's owner, who alone can let its formulas run on their key (Google gives formulas the owner's settings); scans are told apart without it",
    consent: 'See your primary Google Account email address',
  },
  {
    scope: 'https://www.googleapis.com/auth/script.send_mail',
    need: 'mail',
    feature:
      'The opt-in email after a scheduled re-scan (its Changes summary, next run, how to pause), sent only to your own address, as plain text; off unless you tick it',
    consent: 'Send email as you',
  },
  {
    scope: 'https://www.googleapis.com/auth/drive.file',
    need: 'drive',
    feature: 'Save to Drive: a downloaded scan is saved as a new file in your Drive (only files this add-on creates)',
    consent: 'See, edit, create, and delete only the specific Google Drive files you use with this app',
  },
];

module.exports = { ADDON_SCOPES };

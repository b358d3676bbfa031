/**
 * The words of New scan that explain rather than act, sent with getScanSetup so that they cost the
 * sidebar page nothing (it is served on every open and its open time is measured by bench/sidebar-open.ts).
 */
import type { NewScanHelp } from './protocol';

export function newScanHelp(): NewScanHelp {
  return {
    headerRow: 'The row with the column names (0 if the list has none). Changing it reads the columns again.',
    supplierDiscount: 'Taken off every cost in the list, e.g. 5 for 5 %.',
    prepCost: 'What preparing one unit costs you (label, bag); taken off the profit of each unit.',
    multipackPrepCost:
      'For listings sold as multipacks: a prep cost for each of the first N units of an order and another for each unit after them, instead of the same prep cost for every unit.',
    multipackOverride:
      'Counts every listing as a pack of this many units (instead of the pack size the marketplace lists); your own multipack corrections still win.',
    pullHistoricalData: 'Adds 90-day average rank, price and Amazon in-stock rate, and rank drops over 30 and 90 days, to the result tab.',
    pictures: 'A picture of each product beside its title, to tell a wrong match at a glance (one more column).',
    allColumns:
      "Adds every other product field the service sends: FBA eligibility and its reasons, Small and Light, parent ASIN and variations, used offers, competing sellers, package size (inches) and weight (pounds), the listing's other codes, and fee problems. More columns: the room check counts them.",
    key: "Your API key is in the Scan Service's web app under Integrations > API Access. It is kept in your own Google account, never in the spreadsheet.",
    sendAnyway: 'Send anyway: I will import only the rows that pass filters, or download the results',
    sendAgain: 'This starts another scan of the same rows, charged again by the Scan Service. Send again?',
  };
}

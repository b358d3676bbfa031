/**
 * The account's lists the add-on keeps in step with tables (document 2.5–2.7, 4.4–4.6), each named
 * once here by the operation that lists it. Every layer declares a list kind in one place keyed by
 * these ids: the add-on's list kinds (src/app/lists/kinds.ts) and their service side
 * (src/app/lists/service.ts) are records over ListId, so a kind added here is named by the type
 * checker wherever it is missing; the local service's front door (emulator/service/worker) and a
 * test (test/service/list-kinds.test.ts) find each kind's path and handlers from this table.
 * Steps to add a kind: src/app/lists/README.md.
 */
import type { operations } from './schema';

export const LIST_OPERATIONS = {
  tags: 'listTags',
  notes: 'listNotes',
  brands: 'listBrandBlocklist',
  asins: 'listAsinBlocklist',
  matches: 'listListingMatches',
  multipack: 'listMultipackCorrections',
} as const satisfies { [id: string]: keyof operations };

/** A list kind: tags, notes, brands (brand blocklist), asins (ASIN blocklist), matches (listing matches), multipack (corrections). */
export type ListId = keyof typeof LIST_OPERATIONS;

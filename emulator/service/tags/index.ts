/** Tags on ASINs (document 2.5, 4.4): the area as areas.ts registers it, its handlers and its tables. */
export { tagHandlers } from './routes';
export { TAGS_TABLES } from './tables';

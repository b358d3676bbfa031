/** Notes on ASINs (document 2.6, 4.5): the area as areas.ts registers it, its handlers and its tables. */
export { noteHandlers } from './routes';
export { NOTES_TABLES } from './tables';

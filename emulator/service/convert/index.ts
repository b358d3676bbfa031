/** Identifier conversion (convert.yaml, document 4.2): the area as areas.ts registers it, its handlers and their limits. It has no tables. */
export { MAX_CONVERT_ASINS, MAX_CONVERT_IDS, convertHandlers } from './routes';

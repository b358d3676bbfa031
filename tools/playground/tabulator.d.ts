// tabulator-tables ships no types; the page uses a handful of its calls (see client.ts).
declare module 'tabulator-tables' {
  export const TabulatorFull: any;
}

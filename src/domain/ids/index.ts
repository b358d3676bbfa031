/** Product identifiers: recognition, validation, repair (identify.ts) and check digits (checkDigits.ts). */
export * from './identify';
export * from './checkDigits';

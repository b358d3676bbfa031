/**
 * Errors the local Scan Service answers with. Route code throws ApiError; the app's error handler
 * turns it into `{ message, ...extra }` with the status. Anything else that escapes a handler is a
 * bug in the stand-in and answers 500 (a client's mistake must never produce one).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface RowError {
  index: number;
  field: string;
  message: string;
}

/** 422 of the bulk areas (document section 7): every bad row listed, nothing written. */
export function validationFailed(errors: RowError[], message = 'The given data was invalid.'): ApiError {
  return new ApiError(422, message, { errors });
}

export const notFound = (what: string): ApiError => new ApiError(404, `${what} not found.`);

/** Handlers of the conversion operations (convert.yaml, document 4.2). */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError } from '../shared/errors';
import type { ScanEngine } from '../engine/types';
import { requestMarketplace } from '../shared/auth';

export const MAX_CONVERT_IDS = 20;
export const MAX_CONVERT_ASINS = 1000;

/** The list member of a conversion body: 1..max strings, trimmed, none empty; 422 naming every bad one. */
function inputList(body: any, field: string, max: number): string[] {
  const v = body?.[field];
  if (!Array.isArray(v)) throw new ApiError(422, `Invalid request: ${field} is required, an array of 1 to ${max} strings.`);
  if (v.length < 1 || v.length > max) throw new ApiError(422, `Invalid request: ${field} must have 1 to ${max} items; it has ${v.length}.`);
  const bad = v.map((x, i) => (typeof x !== 'string' || x.trim() === '' ? i : -1)).filter((i) => i >= 0);
  if (bad.length)
    throw new ApiError(
      422,
      `Invalid request: ${field} must hold non-empty strings; item${bad.length > 1 ? 's' : ''} ${bad.join(', ')} ${bad.length > 1 ? 'are' : 'is'} not.`,
      {
        errors: bad.map((index) => ({ index, field, message: `${field}[${index}] must be a non-empty string.` })),
      },
    );
  return v.map((x: string) => x.trim());
}

export function convertHandlers(_ctx: ServiceContext, engine: ScanEngine) {
  return {
    convertIdentifiers(req: FastifyRequest) {
      const body = req.body as any;
      const m = requestMarketplace(req.account, body?.marketplace, 'marketplace', true);
      return engine.convert(m.id, inputList(body, 'ids', MAX_CONVERT_IDS));
    },
    convertAsins(req: FastifyRequest) {
      const body = req.body as any;
      const m = requestMarketplace(req.account, body?.marketplace, 'marketplace', true);
      return engine.asinConvert(m.id, inputList(body, 'asins', MAX_CONVERT_ASINS));
    },
  };
}

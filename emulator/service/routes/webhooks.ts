import type { ServiceContext } from '../context';
export function webhookHandlers(_ctx: ServiceContext): Record<string, any> { return {}; }

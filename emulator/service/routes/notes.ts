import type { ServiceContext } from '../context';
export function noteHandlers(_ctx: ServiceContext): Record<string, any> { return {}; }

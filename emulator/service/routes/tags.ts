import type { ServiceContext } from '../context';
export function tagHandlers(_ctx: ServiceContext): Record<string, any> { return {}; }

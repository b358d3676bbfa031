import { conversionService, FakeCache, FakeClock, FakeFetcher, type Handler } from '../api/fakes';
import type { FormulaDeps } from '../../../src/custom-functions/engine';
import type { FormulaSettings } from '../../../src/custom-functions/key';

export const KEY = 'rs_live_7Hq2ZxP0aVb9LmN4';

export function world(handler: Handler, opts: { settings?: FormulaSettings; waveMs?: number } = {}) {
  const clock = new FakeClock();
  const fetcher = new FakeFetcher(handler, clock, opts.waveMs ?? 1500);
  const cache = new FakeCache(clock);
  const settings: FormulaSettings = opts.settings ?? {
    ok: true,
    service: { baseUrl: 'https://svc.example.com', apiKey: KEY },
    defaultMarketplace: 'US',
  };
  /** Fresh deps per formula call, as each recalculation is a new execution. */
  const deps = (): FormulaDeps => ({
    fetcher,
    cache,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    settings: () => settings,
    startedAt: clock.t,
  });
  return { clock, fetcher, cache, deps };
}

export { conversionService };

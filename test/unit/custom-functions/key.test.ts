import { encodeFormulaShare, formulaSharePropertyName, readFormulaSettings } from '../../../src/custom-functions/key';
import { NO_KEY_MESSAGE } from '../../../src/custom-functions/messages';

const props = (m: Record<string, string>) => ({ getProperty: (k: string) => (k in m ? m[k] : null) });

test('formulas use only the key shared for this spreadsheet', () => {
  const share = encodeFormulaShare({ v: 1, apiKey: ' owner-key-123456 ', baseUrl: 'https://svc.example.com', marketplace: 'DE' });
  const p = props({ [formulaSharePropertyName('sheet-A')]: share, 'scan.apiKey': 'owner-main-key' });
  expect(readFormulaSettings(p, 'sheet-A', 'https://default', NO_KEY_MESSAGE)).toEqual({
    ok: true,
    service: { apiKey: 'owner-key-123456', baseUrl: 'https://svc.example.com' },
    defaultMarketplace: 'DE',
  });
  // Another spreadsheet of the same owner: not shared there.
  expect(readFormulaSettings(p, 'sheet-B', 'https://default', NO_KEY_MESSAGE)).toEqual({
    ok: false,
    message: NO_KEY_MESSAGE,
    defaultMarketplace: undefined,
  });
});

test('a broken or keyless share is no key; the service address falls back to the default', () => {
  expect(readFormulaSettings(props({ [formulaSharePropertyName('s')]: '{oops' }), 's', 'https://d', NO_KEY_MESSAGE).ok).toBe(false);
  expect(readFormulaSettings(props({ [formulaSharePropertyName('s')]: '{"v":1,"apiKey":""}' }), 's', 'https://d', NO_KEY_MESSAGE).ok).toBe(
    false,
  );
  const r = readFormulaSettings(
    props({ [formulaSharePropertyName('s')]: '{"v":1,"apiKey":"k-123456789"}' }),
    's',
    'https://d',
    NO_KEY_MESSAGE,
  );
  expect(r.ok && r.service.baseUrl).toBe('https://d');
});

test('the no-key message says what to do', () => {
  expect(NO_KEY_MESSAGE).toMatch(/owner/);
  expect(NO_KEY_MESSAGE).toMatch(/Settings/);
  expect(NO_KEY_MESSAGE).toMatch(/Convert selected column/);
});

/**
 * Which Apps Script methods a built bundle calls, and the least set of scopes they need, by the
 * local runtime's table of Google's per-method scopes (emulator/gas/scopes.ts, from each method's
 * reference page, "Authorization"). test/build/scopes.test.ts holds the manifest to it, and
 * `npm run listing` writes the OAuth verification notes (docs/oauth-verification.md) from it.
 */
import { METHOD_SCOPES, scopeRule, type ScopeRule } from '../../emulator/gas/scopes';

/**
 * `Service.method` calls of a script: a method of the table counts when the script names its
 * service (a global, or `Ui` — reached through getUi()) and calls a member of that name anywhere
 * (the bundle hands services around, e.g. `fetcher: UrlFetchApp` then `fetcher.fetchAll(`). An
 * over-approximation on purpose: a call the table knows is never missed.
 */
export function calledMethods(source: string, table: Readonly<Record<string, ScopeRule>> = METHOD_SCOPES): string[] {
  const out: string[] = [];
  for (const key of Object.keys(table)) {
    const service = key.slice(0, key.indexOf('.'));
    const method = key.slice(service.length + 1).replace(/\./g, '\\.'); // 'Files.create' of the advanced Drive service
    const named = service === 'Ui' ? /\.getUi\(/.test(source) : new RegExp(`\\b${service}\\b`).test(source);
    if (named && new RegExp(`\\.${method}\\(`).test(source)) out.push(key);
  }
  // Advanced services (global `Drive`): `Drive.Files.create(`.
  for (const m of source.matchAll(/\b(Drive)\.(\w+\.\w+)\(/g)) if (scopeRule(`${m[1]}.${m[2]}`)) out.push(`${m[1]}.${m[2]}`);
  return [...new Set(out)].sort();
}

/**
 * The least set of scopes meeting every rule: rules with one choice first; a rule already met by a
 * chosen scope adds nothing; otherwise its first (narrowest) scope is chosen.
 */
export function neededScopes(methods: readonly string[]): Map<string, string[]> {
  const rules = methods.map((m) => ({ m, rule: scopeRule(m)! })).sort((a, b) => a.rule.anyOf.length - b.rule.anyOf.length);
  const chosen = new Map<string, string[]>();
  for (const { m, rule } of rules) {
    const met = rule.anyOf.find((s) => chosen.has(s));
    if (met) chosen.get(met)!.push(m);
    else chosen.set(rule.anyOf[0], [m]);
  }
  return chosen;
}

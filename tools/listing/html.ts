/** The kit's static pages: one plain, self-contained HTML page (no script, no outside resource). */
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function page(title: string, body: string, updated: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Product Sourcing Scan for Google Sheets</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}table{border-collapse:collapse;width:100%}th,td{border:1px solid #d1d5db;padding:.4rem .6rem;text-align:left;vertical-align:top}code{font-size:.9em}</style>
</head>
<body>
<main>
<h1>${esc(title)}</h1>
<p>Product Sourcing Scan for Google Sheets (an Editor add-on). Last updated ${esc(updated)}.</p>
${body.trim()}
</main>
</body>
</html>
`;
}

export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const tr = (cells: readonly string[], tag: string) => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
  return `<table>\n<thead>${tr(head.map(esc), 'th')}</thead>\n<tbody>\n${rows.map((r) => tr(r, 'td')).join('\n')}\n</tbody>\n</table>`;
}

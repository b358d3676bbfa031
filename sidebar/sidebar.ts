// The sidebar page's script. Everything shown comes from text we did not write (sheet cells, the
// service's answers), so it is only ever inserted as text, never as HTML.
export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const app = document.getElementById('app');
if (app) {
  const view = app.getAttribute('data-view') || 'scan';
  app.textContent = '';
  const p = document.createElement('p');
  p.className = 'muted';
  p.textContent = 'View: ' + view;
  app.appendChild(p);
}

/**
 * The sidebar page's script (bundled into dist/Sidebar.html). The template sets data-view on #app to
 * the view the menu asked for. Views: new scan, scans (history), convert a column, settings (and its
 * webhooks page), help.
 */
import { start } from './app';
import './scan';
import './history';
import './convert';
import './lists';
import './settings';
import './webhooks';
import './help';

const mount = document.getElementById('app');
if (mount) start(mount, mount.getAttribute('data-view') || 'scan');

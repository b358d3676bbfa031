/** Help: how the add-on is used, in a few lines; the words come from the server (getHelp) so that they cost the page nothing. */
import { fail, register } from './app';
import { fill, h } from './dom';
import { call } from './server';

register('help', (root) => {
  const box = h('dl', 'help');
  fill(root, h('h2', null, 'Help'), box);
  call('getHelp').then((v) => fill(box, ...v.steps.flatMap((s) => [h('dt', null, s.title), h('dd', null, s.text)])), fail);
});

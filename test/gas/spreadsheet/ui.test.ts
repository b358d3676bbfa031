import { makeEnv, thrown } from './env';

const html = (content: string, title: string) => ({ getContent: () => content, getTitle: () => title });

describe('Ui: menus, alerts, prompts, sidebars, dialogs', () => {
  test('createMenu with items, separators and sub-menus records a menu event on addToUi (sub-menu items flattened, chosen)', () => {
    const { app, state } = makeEnv();
    const ui = app.getUi();
    const sub = ui.createMenu('Advanced').addItem('Reset', 'resetAll');
    ui.createMenu('Scanner').addItem('Open sidebar', 'showSidebar').addSeparator().addSubMenu(sub).addToUi();
    expect(state.uiEvents).toEqual([
      {
        kind: 'menu',
        name: 'Scanner',
        items: [{ caption: 'Open sidebar', functionName: 'showSidebar' }, null, { caption: 'Advanced > Reset', functionName: 'resetAll' }],
      },
    ]);
  });

  test('createAddonMenu records the add-on menu', () => {
    const { app, state } = makeEnv();
    app.getUi().createAddonMenu().addItem('Start scan', 'startScan').addToUi();
    expect(state.uiEvents[0]).toMatchObject({
      kind: 'menu',
      name: 'Add-on',
      items: [{ caption: 'Start scan', functionName: 'startScan' }],
    });
  });

  test('alert takes the next scripted answer', () => {
    const { app, state } = makeEnv();
    const ui = app.getUi();
    state.uiAnswers.push({ button: 'NO' });
    const b = ui.alert('Replace?', 'Overwrite results?', ui.ButtonSet.YES_NO);
    expect(b).toBe(ui.Button.NO);
    expect(state.uiEvents[0]).toEqual({ kind: 'alert', title: 'Replace?', prompt: 'Overwrite results?', buttons: 'YES_NO', answer: 'NO' });
  });

  test('alert with no scripted answer presses its first button (chosen)', () => {
    const { app, state } = makeEnv();
    const ui = app.getUi();
    expect(ui.alert('Just so you know')).toBe(ui.Button.OK);
    expect(ui.alert('Sure?', ui.ButtonSet.YES_NO_CANCEL)).toBe(ui.Button.YES);
    expect(state.uiEvents.map((e) => (e as { answer: string }).answer)).toEqual(['OK', 'YES']);
  });

  test('prompt takes the next scripted answer with its text', () => {
    const { app, state } = makeEnv();
    const ui = app.getUi();
    state.uiAnswers.push({ button: 'OK', text: 'my-api-key' });
    const r = ui.prompt('API key', 'Paste your key', ui.ButtonSet.OK_CANCEL);
    expect(r.getSelectedButton()).toBe(ui.Button.OK);
    expect(r.getResponseText()).toBe('my-api-key');
    expect(state.uiEvents[0]).toEqual({
      kind: 'prompt',
      title: 'API key',
      prompt: 'Paste your key',
      buttons: 'OK_CANCEL',
      answer: 'OK',
      text: 'my-api-key',
    });
  });

  test('prompt with no scripted answer is cancelled with empty text; closed when it has no Cancel button (chosen)', () => {
    const { app } = makeEnv();
    const ui = app.getUi();
    const r = ui.prompt('Name?', ui.ButtonSet.OK_CANCEL);
    expect(r.getSelectedButton()).toBe(ui.Button.CANCEL);
    expect(r.getResponseText()).toBe('');
    // prompt(text) shows only OK, so the user can only close it.
    expect(ui.prompt('Name?').getSelectedButton()).toBe(ui.Button.CLOSE);
  });

  test('a scripted answer that is not one of the buttons shown is a test-setup error', () => {
    const { app, state } = makeEnv();
    state.uiAnswers.push({ button: 'YES' });
    expect(thrown(() => app.getUi().alert('Hi', app.getUi().ButtonSet.OK_CANCEL))).toMatch(/not one of the buttons shown/);
  });

  test('showSidebar, showModalDialog and showModelessDialog record the HTML and title', () => {
    const { app, state } = makeEnv();
    const ui = app.getUi();
    ui.showSidebar(html('<p>side</p>', 'Scanner') as unknown as GoogleAppsScript.HTML.HtmlOutput);
    ui.showModalDialog(html('<p>modal</p>', 'ignored') as unknown as GoogleAppsScript.HTML.HtmlOutput, 'Export');
    ui.showModelessDialog(html('<p>free</p>', '') as unknown as GoogleAppsScript.HTML.HtmlOutput, 'Progress');
    expect(state.uiEvents).toEqual([
      { kind: 'sidebar', title: 'Scanner', html: '<p>side</p>' },
      { kind: 'dialog', title: 'Export', html: '<p>modal</p>', modal: true },
      { kind: 'dialog', title: 'Progress', html: '<p>free</p>', modal: false },
    ]);
  });

  test("a time-driven trigger has no UI: getUi throws Google's message", () => {
    const { app, run } = makeEnv();
    expect(run('installable-trigger', () => thrown(() => app.getUi()))).toBe('Cannot call SpreadsheetApp.getUi() from this context.');
  });
});
